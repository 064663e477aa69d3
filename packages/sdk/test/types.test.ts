import {
  type ErrorCode,
  type GameRecord,
  type LiquidityRow,
  listRoutes,
  type SearchRow,
} from "@gmi/contract";
import { describe, expect, expectTypeOf, it } from "vitest";
import {
  type BatchItemOf,
  GmiClient,
  type GmiError,
  type ListCall,
  type Page,
  type RateLimitError,
  type RowOf,
} from "../src/index.js";
import { ROUTES } from "../src/internal/routes.js";

// Type-level tests: `tsc --noEmit` (the typecheck script) is what checks them.
const client = new GmiClient({ apiKey: "k", baseUrl: "https://api.test" });

describe("typed end to end from the contract", () => {
  it("rows and meta", () => {
    expectTypeOf<RowOf<"intelligence.list">>().toEqualTypeOf<LiquidityRow>();
    expectTypeOf<RowOf<"demandIntent.unmet">>().toEqualTypeOf<SearchRow>();
    expectTypeOf<RowOf<"games.byConsole">>().toEqualTypeOf<GameRecord>();
    expectTypeOf(client.intelligence.list()).toEqualTypeOf<ListCall<"intelligence.list">>();
    expectTypeOf<Awaited<ListCall<"games.titles">>>().toEqualTypeOf<Page<"games.titles">>();
    expectTypeOf<Page<"intelligence.list">["meta"]["sort"]>().toEqualTypeOf<
      "liquidity" | "demand" | "value"
    >();
    expectTypeOf<Page<"demandIntent.trending">["meta"]["period"]>().toEqualTypeOf<"day" | "7d" | "30d">();
    expectTypeOf<
      Awaited<ReturnType<typeof client.me>>["data"]["plan"]["max_batch_size"]
    >().toEqualTypeOf<number>();
    type Item = BatchItemOf<"intelligence.batch">;
    expectTypeOf<Extract<Item, { data: unknown }>["data"]["found"]>().toEqualTypeOf<true | false>();
  });

  it("parameters: wrong ones are type errors, right ones reach the query string", async () => {
    const sent: string[] = [];
    const recording = new GmiClient({
      apiKey: "k",
      baseUrl: "https://api.test",
      maxRetries: 0,
      fetch: async (input) => {
        sent.push(String(input));
        throw new TypeError("offline");
      },
    });
    await expect(
      recording.intelligence.list({
        sort: "value",
        period: "30d",
        console_id: 1,
        limit: 10,
        paginate: "cursor",
      }),
    ).rejects.toThrow();
    const query = new URL(sent[0] ?? "https://none").searchParams;
    expect(Object.fromEntries(query)).toMatchObject({
      sort: "value",
      period: "30d",
      console_id: "1",
      limit: "10",
    });
    // Never called: `tsc --noEmit` checks that each of these is refused.
    const refused = () => {
      // @ts-expect-error a search sort is not an intelligence sort
      client.intelligence.list({ sort: "volume" });
      // @ts-expect-error trending has a fixed sort
      client.searches.trending({ sort: "volume" });
      // @ts-expect-error no such period
      client.searches.conditions({ period: "90d" });
      // @ts-expect-error ids are numbers
      client.games.get("101");
    };
    expectTypeOf(refused).toBeFunction();
  });

  it("a switch on the error code is exhaustive", () => {
    const explain = (error: GmiError): string => {
      switch (error.code) {
        case "unauthorized":
        case "account_inactive":
        case "insufficient_scope":
          return "credentials";
        case "quota_exceeded":
        case "rate_limit_exceeded":
          return "limits";
        case "not_found":
        case "idempotency_conflict":
        case "validation_failed":
        case "batch_too_large":
        case "idempotency_key_reuse":
        case "method_not_allowed":
        case "payload_too_large":
        case "unsupported_media_type":
          return "request";
        case "not_implemented":
        case "server_error":
        case "service_unavailable":
          return "server";
        case undefined:
          return "no answer";
        default: {
          const unreachable: never = error.code;
          return unreachable;
        }
      }
    };
    expect(explain({ code: "not_found" } as GmiError)).toBe("request");
    expectTypeOf<NonNullable<GmiError["code"]>>().toEqualTypeOf<ErrorCode>();
    expectTypeOf<RateLimitError["retryAfter"]>().toEqualTypeOf<number | undefined>();
  });

  it("the SDK's route table is the contract's", () => {
    const table: Record<string, readonly [string, string]> = ROUTES;
    for (const { name, route } of listRoutes()) expect(table[name]).toEqual([route.method, route.path]);
    expect(Object.keys(ROUTES)).toHaveLength(listRoutes().length);
  });
});
