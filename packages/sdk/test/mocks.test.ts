import { ErrorEnvelopeSchema, listRoutes } from "@gmi/contract";
import { describe, expect, it } from "vitest";
import { GmiClient, UnexpectedResponseError } from "../src/index.js";
import type { RouteName } from "../src/types.js";
import { validateResponses } from "../src/validate/index.js";
import { API_KEY, BASE_URL, makeClient, useGmiMocks } from "./helpers.js";

const gmi = useGmiMocks();
/** Every answer below is parsed by the contract's own zod schema for its route and status. */
const client = () => makeClient({ validate: validateResponses() });

describe("the msw handlers", () => {
  it("cover every route of the contract", () => {
    // + the CORS preflight, and the 404/405 of any other path
    expect(gmi.handlers).toHaveLength(listRoutes().length + 2);
  });

  it("serve fixtures the contract's schemas accept, on every route, in both modes", async () => {
    const gmiClient = client();
    const seen = new Set<RouteName>();
    const walk = async (
      call: { toArray(o: { maxItems: number }): Promise<unknown[]> } & PromiseLike<unknown>,
    ) => {
      await call;
      return call.toArray({ maxItems: 10_000 });
    };
    expect(await walk(gmiClient.intelligence.list({ period: "30d", sort: "value" }))).toHaveLength(
      gmi.fixtures.liquidity.length,
    );
    await walk(gmiClient.searches.list({ sort: "momentum" }));
    await walk(gmiClient.searches.trending({ console_id: 2 }));
    expect((await walk(gmiClient.searches.unmet())).length).toBeGreaterThan(100);
    await walk(gmiClient.games.titles());
    await walk(gmiClient.games.slugs());
    await walk(gmiClient.games.byConsole(3));
    await walk(gmiClient.consoles.list());
    await gmiClient.intelligence.get(101);
    await gmiClient.intelligence.get(102, { period: "day", date: "2026-11-01" });
    await gmiClient.intelligence.conditions(101);
    const history = await gmiClient.intelligence.history(101);
    expect(history.data.points).toHaveLength(30);
    const today = await gmiClient.intelligence.get(101, { period: "day" });
    expect(history.data.points.at(-1)?.liquidity_score).toBe(today.data.liquidity_score);
    await gmiClient.intelligence.history(101, { period: "7d", from: "2026-11-01", to: "2026-11-30" });
    await gmiClient.searches.conditions();
    await gmiClient.searches.gameConditions(101);
    await gmiClient.games.get(101);
    expect((await gmiClient.games.bySlug("chrono-trigger")).data).toHaveLength(1);
    expect((await gmiClient.games.byTitle("CHRONO TRIGGER")).meta.count).toBe(1);
    expect((await gmiClient.games.bySlug("nothing-here")).data).toEqual([]);
    const me = await gmiClient.me();
    expect(me.data.plan).toMatchObject({ slug: "pro", max_batch_size: 100 });
    expect(me.data.usage.day).toMatchObject({ limit: 200_000, used: me.data.usage.month.used });
    gmi.scenarios.failItems([103], { status: 503, times: 5 });
    const batch = await gmiClient.intelligence.batch([101, 102, 103, 9_999, 0], { itemRetries: 0 });
    expect(batch.data.map((item) => item.status)).toEqual([200, 200, 503, 200, 422]);
    await gmiClient.signals.batch([101, 9_999]);
    for (const request of gmi.state.requests) seen.add(request.route);
    expect([...seen].sort()).toEqual(
      listRoutes()
        .map((r) => r.name)
        .sort(),
    );
  });

  it("history: stops at the latest date, and refuses a reversed or over-long range like the server", async () => {
    const c = makeClient();
    const tail = await c.intelligence.history(101, { from: "2026-11-15" });
    expect(tail.meta).toMatchObject({ period: "day", from: "2026-11-15", to: "2026-11-20" });
    expect(tail.data.points.map((p) => p.date)).toEqual([15, 16, 17, 18, 19, 20].map((d) => `2026-11-${d}`));
    await expect(c.intelligence.history(101, { from: "2026-11-20", to: "2026-11-01" })).rejects.toMatchObject(
      {
        status: 422,
      },
    );
    await expect(c.intelligence.history(101, { from: "2026-12-01" })).rejects.toMatchObject({ status: 422 });
    await expect(c.intelligence.history(9_999)).rejects.toMatchObject({ status: 404 });
  });

  it("the profile's rank is the game's place on the leaderboard, or null without demand", async () => {
    const leader = (await makeClient().intelligence.list({ limit: 1 })).data[0];
    const profile = await makeClient().intelligence.get(leader?.game.id ?? 0);
    expect(profile.data.rank).toBe(1);
    const idle = [...gmi.fixtures.profiles.values()].find((p) => p.demand.redirects === 0);
    expect((await makeClient().intelligence.get(idle?.game.id ?? 0)).data.rank).toBeNull();
  });

  it("error bodies match the contract's error envelope", async () => {
    const bodies: unknown[] = [];
    const raw = new GmiClient({
      apiKey: API_KEY,
      baseUrl: BASE_URL,
      maxRetries: 0,
      fetch: async (url, init) => {
        const response = await fetch(url, init);
        if (!response.ok) bodies.push(await response.clone().json());
        return response;
      },
    });
    const attempt = (p: PromiseLike<unknown>) => Promise.resolve(p).catch(() => undefined);
    await attempt(raw.games.titles({ limit: 0 }));
    await attempt(raw.intelligence.get(1));
    await attempt(
      raw.intelligence.batch(
        Array.from({ length: 101 }, (_, i) => 101 + i),
        { chunkSize: 101 },
      ),
    );
    gmi.scenarios.rateLimited({ retryAfter: 0 });
    await attempt(raw.consoles.list());
    gmi.scenarios.idempotencyConflict({ retryAfter: 0 });
    await attempt(raw.signals.batch([101], { chunkSize: 1 }));
    gmi.scenarios.serverErrors({ times: 1, status: 500 });
    await attempt(raw.consoles.list());
    gmi.scenarios.missingScope("games.read");
    await attempt(raw.consoles.list());
    gmi.scenarios.quotaExceeded();
    await attempt(raw.consoles.list());
    gmi.reset();
    gmi.scenarios.accountInactive();
    await attempt(raw.consoles.list());
    gmi.reset();
    gmi.scenarios.expiredKey();
    await attempt(raw.consoles.list());
    expect(bodies).toHaveLength(10);
    for (const body of bodies) expect(ErrorEnvelopeSchema.parse(body)).toEqual(body);
  });

  it("idempotency: a replay says so, another payload under the same key is refused", async () => {
    const first = await fetch(`${BASE_URL}/api/v1/intelligence/batch`, {
      method: "POST",
      headers: {
        authorization: `Bearer ${API_KEY}`,
        "idempotency-key": "k1:0-0",
        "content-type": "application/json",
      },
      body: JSON.stringify({ requests: [{ game_id: 101 }] }),
    });
    const again = await fetch(`${BASE_URL}/api/v1/intelligence/batch`, {
      method: "POST",
      headers: {
        authorization: `Bearer ${API_KEY}`,
        "idempotency-key": "k1:0-0",
        "content-type": "application/json",
      },
      body: JSON.stringify({ requests: [{ game_id: 101 }] }),
    });
    expect(again.headers.get("idempotency-replayed")).toBe("true");
    expect(await again.json()).toEqual(await first.json());
    const e = await makeClient({ maxBatchSize: 10 })
      .intelligence.batch([102], { idempotencyKey: "k1" })
      .catch((error: unknown) => error);
    expect(e).toMatchObject({ status: 422, code: "idempotency_key_reuse" });
  });

  it("a cursor only works on its own list and scope", async () => {
    const page = await makeClient().games.titles({ paginate: "cursor" });
    const cursor = page.meta.pagination.mode === "cursor" ? page.meta.pagination.next_cursor : null;
    const e = await Promise.resolve(makeClient().games.slugs({ cursor: cursor ?? "" })).catch(
      (error: unknown) => error,
    );
    expect(e).toMatchObject({
      status: 422,
      details: { issues: [expect.objectContaining({ field: "cursor" })] },
    });
  });

  it("a schema mismatch is an UnexpectedResponseError when validation is on", async () => {
    const bad = new GmiClient({
      apiKey: API_KEY,
      baseUrl: BASE_URL,
      validate: validateResponses(),
      fetch: async () => Response.json({ data: { id: "not a number" }, meta: {} }),
    });
    const e = await bad.games.get(1).catch((error: unknown) => error);
    expect(e).toBeInstanceOf(UnexpectedResponseError);
    expect(e).toMatchObject({ status: 200 });
  });
});
