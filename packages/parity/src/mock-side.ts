import { createGmiMocks, type GmiMockOptions, type GmiMocks } from "@gmi/sdk/msw";
import { setupServer } from "msw/node";
import { LATEST_DATE, NOW } from "./fixture.js";
import type { Account, KeySpec, Req, Session, Side } from "./scenario.js";
import { sendOver } from "./send.js";

/** The options every mock of the suite is built with (the world, once given, is the server's). */
export type MockWorldOptions = Omit<GmiMockOptions, "baseUrl" | "apiKey" | "plan" | "scopes">;

/**
 * The msw handlers of `@gmi/sdk/msw` under `setupServer` (msw/node): one mock per key of a
 * scenario, each on a base URL of its own, all loaded with the same world; their clock frozen at
 * the server's NOW. Requests to anything else (the real server's port) pass through untouched.
 */
export const startMockSide = async (world: MockWorldOptions = { latestDate: LATEST_DATE }): Promise<Side> => {
  const server = setupServer();
  server.listen({ onUnhandledFrame: "bypass" });
  let now = NOW;
  let scenario = 0;

  const mockOf = (name: string, spec: KeySpec, token: string, index: number, account?: Account): GmiMocks => {
    const mocks = createGmiMocks({
      ...world,
      baseUrl: `https://${name.replace(/[^a-z0-9]/gi, "")}.s${index}.parity.test`,
      apiKey: token,
      plan: spec.plan ?? "pro",
      ...(spec.scopes ? { scopes: spec.scopes } : {}),
      // The suite's clock, frozen like the server's.
      now: () => now,
      ...(account ? { account } : {}),
    });
    const state = spec.state ?? "active";
    if (state === "revoked" || state === "expired")
      mocks.scenarios.expiredKey({ revoked: state === "revoked" });
    if (state === "suspended-organization") mocks.scenarios.accountInactive({ subject: "organization" });
    if (state === "suspended-client") mocks.scenarios.accountInactive({ subject: "api_client" });
    if (spec.monthUsed) mocks.state.monthUsed = spec.monthUsed;
    return mocks;
  };

  return {
    name: "mock",
    async open(keys, issued): Promise<Session> {
      const tokens = issued?.tokens ?? {};
      const accounts = issued?.accounts ?? {};
      scenario += 1;
      const mocks: Record<string, GmiMocks> = {};
      const keyTokens: Record<string, string> = {};
      for (const [name, spec] of Object.entries(keys)) {
        keyTokens[name] = tokens[name] ?? `gmi_live_parity_${name}`;
        mocks[name] = mockOf(name, spec, keyTokens[name], scenario, accounts[name]);
      }
      server.resetHandlers(...Object.values(mocks).flatMap((m) => m.handlers));
      const started = now;
      // A request goes to its key's mock; without a key of the scenario, to the main key's.
      const baseOf = (request: Req) => {
        const key = typeof request.key === "string" ? request.key : "main";
        const mock = mocks[key] ?? Object.values(mocks)[0];
        if (!mock) throw new Error("a scenario without keys");
        return mock.baseUrl;
      };
      return {
        tokens: keyTokens,
        accounts,
        send: (request) => sendOver(baseOf(request), keyTokens, request),
        // Batches hold on the main key's mock (the only one a held step uses).
        holdNextBatch: () =>
          (mocks.main ?? Object.values(mocks)[0])?.state.holdNextBatch() ?? {
            reached: Promise.resolve(),
            release: () => {},
          },
        advance: (ms) => {
          now += ms;
        },
        end: async () => {
          now = started;
        },
      };
    },
    async close() {
      server.close();
    },
  };
};
