import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TestApp } from "../helpers/app.js";
import { bearer, startTestApp } from "../helpers/app.js";
import { useTestDatabase } from "../helpers/setup.js";
import { createTenant, createTestPlan } from "../helpers/tenant.js";

/**
 * /metrics in the real app: the counters are read off final responses, whichever plugin answered,
 * so this walks real refusals (limits plugin, auth plugin, not-found handler) through to the scrape.
 */
const TOKEN = "metrics-token-0123456789";
const db = useTestDatabase();
let t: TestApp;
beforeAll(async () => {
  t = await startTestApp(db().pool, { env: { METRICS_TOKEN: TOKEN } });
});
afterAll(() => t?.close());

const scrape = async () => {
  const response = await t.app.inject({ url: "/metrics", headers: bearer(TOKEN) });
  expect(response.statusCode).toBe(200);
  return response.body;
};
const sample = (text: string, series: string) => {
  const line = text.split("\n").find((l) => l.startsWith(`${series} `));
  return line === undefined ? 0 : Number(line.slice(series.length + 1));
};

describe("GET /metrics on the app", () => {
  it("counts requests by route pattern and rate-limit refusals, and reports pool and rollup", async () => {
    const before = await scrape();
    const plan = await createTestPlan(db().pool, { perMinute: 2, perDay: 100, quota: null });
    const { key } = await createTenant(db().pool, { plan });
    const statuses: number[] = [];
    for (let i = 0; i < 3; i++) {
      statuses.push((await t.app.inject({ url: "/api/v1/games/titles", headers: bearer(key) })).statusCode);
    }
    expect(statuses).toEqual([200, 200, 429]);
    // Anonymous, on a route with a path parameter: counted under the pattern, not the URL.
    await t.app.inject({ url: "/api/v1/games/game/12345" });

    const after = await scrape();
    const delta = (series: string) => sample(after, series) - sample(before, series);
    const requests = (route: string, status: number) =>
      delta(`gmi_http_requests_total{method="GET",route="${route}",status="${status}"}`);
    expect(requests("/api/v1/games/titles", 200)).toBe(2);
    expect(requests("/api/v1/games/titles", 429)).toBe(1);
    expect(requests("/api/v1/games/game/:id", 401)).toBe(1);
    expect(delta('gmi_rate_limit_rejections_total{window="minute"}')).toBe(1);
    expect(after).toContain("gmi_db_pool_connections ");
    expect(after).toContain("gmi_rollup_last_success_timestamp_seconds ");
  });

  it("counts GETs answered from kept answers and those read", async () => {
    const { key } = await createTenant(db().pool);
    const before = await scrape();
    // A URL of this test's own: read, then kept; /me is never kept.
    const url = `/api/v1/games/titles?limit=3&page=${1 + (Date.now() % 1_000)}`;
    for (const path of [url, url, url, "/api/v1/me"])
      expect((await t.app.inject({ url: path, headers: bearer(key) })).statusCode).toBe(200);
    const after = await scrape();
    const delta = (outcome: string) =>
      sample(after, `gmi_response_cache_lookups_total{outcome="${outcome}"}`) -
      sample(before, `gmi_response_cache_lookups_total{outcome="${outcome}"}`);
    expect(delta("hit")).toBe(2);
    expect(delta("miss")).toBe(2);
  });

  it("is refused without the metrics token, and an API key is not one", async () => {
    const { key } = await createTenant(db().pool);
    expect((await t.app.inject({ url: "/metrics" })).statusCode).toBe(401);
    expect((await t.app.inject({ url: "/metrics", headers: bearer(key) })).statusCode).toBe(401);
  });
});
