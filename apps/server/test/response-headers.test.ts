import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { manualClock } from "../src/clock.js";
import type { TestApp } from "./helpers/app.js";
import { bearer, startTestApp } from "./helpers/app.js";
import { json, seedAnalytics } from "./helpers/batch.js";
import { useTestDatabase } from "./helpers/setup.js";
import { createTenant, createTestPlan } from "./helpers/tenant.js";

/**
 * X-Content-Type-Options on every answer, Cache-Control: no-store on every answer of the API's
 * routes (plugins/response-headers.ts), whichever way the answer leaves: built by the handler,
 * kept in the response cache and sent early, replayed from a stored batch answer, or refused.
 */
const db = useTestDatabase();
const clock = manualClock(Date.UTC(2026, 10, 20, 12));
let t: TestApp;
beforeAll(async () => {
  await seedAnalytics(db());
  t = await startTestApp(db().pool, { clock, env: { CORS_ORIGINS: "*" } });
});
afterAll(() => t?.close());

type Answer = { statusCode: number; headers: Record<string, unknown> };
const expectApiHeaders = (answer: Answer, status: number) => {
  expect(answer.statusCode).toBe(status);
  expect(answer.headers["x-content-type-options"]).toBe("nosniff");
  expect(answer.headers["cache-control"]).toBe("no-store");
};

describe("response headers", () => {
  it("on a read built by its handler and on the same read sent early from the response cache", async () => {
    const { key } = await createTenant(db().pool);
    const url = "/api/v1/games/game/105";
    const built = await t.app.inject({ url, headers: bearer(key) });
    expectApiHeaders(built, 200);
    await db().pool.query("UPDATE games SET display_game_name = 'Renamed' WHERE id = 105");
    const kept = await t.app.inject({ url, headers: bearer(key) });
    // The old name: the kept answer, sent before validation and the handler.
    expect(kept.body).toBe(built.body);
    expectApiHeaders(kept, 200);
  });

  it("on a batch answer and on its replay", async () => {
    const { key } = await createTenant(db().pool);
    const send = () =>
      t.app.inject({
        method: "POST",
        url: "/api/v1/intelligence/batch",
        headers: { ...bearer(key), ...json, "idempotency-key": "headers-replay" },
        payload: JSON.stringify({ requests: [{ game_id: 101 }] }),
      });
    expectApiHeaders(await send(), 200);
    const replay = await send();
    expect(replay.headers["idempotency-replayed"]).toBe("true");
    expectApiHeaders(replay, 200);
  });

  it("on refusals: 401, 403, 422, 429", async () => {
    const url = "/api/v1/games/titles?limit=1";
    expectApiHeaders(await t.app.inject({ url }), 401);
    const noScope = await createTenant(db().pool, { scopes: ["intelligence.read"] });
    expectApiHeaders(await t.app.inject({ url, headers: bearer(noScope.key) }), 403);
    const { key } = await createTenant(db().pool);
    expectApiHeaders(await t.app.inject({ url: `${url}&period=week`, headers: bearer(key) }), 422);
    const tiny = await createTestPlan(db().pool, { perMinute: 1, perDay: 100, quota: 100 });
    const limited = await createTenant(db().pool, { plan: tiny });
    await t.app.inject({ url, headers: bearer(limited.key) });
    expectApiHeaders(await t.app.inject({ url, headers: bearer(limited.key) }), 429);
  });

  it("nosniff on everything else, whose caching is its own", async () => {
    for (const url of ["/healthz", "/api/v1/openapi.json", "/no/such/route"]) {
      const answer = await t.app.inject({ url });
      expect(answer.headers["x-content-type-options"], url).toBe("nosniff");
      expect(answer.headers["cache-control"], url).toBeUndefined();
    }
    const preflight = await t.app.inject({
      method: "OPTIONS",
      url: "/api/v1/games/titles",
      headers: { origin: "https://shop.example", "access-control-request-method": "GET" },
    });
    expect(preflight.statusCode).toBe(204);
    expect(preflight.headers["x-content-type-options"]).toBe("nosniff");
  });
});
