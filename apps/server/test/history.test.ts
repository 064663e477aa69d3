import { contract } from "@gmi/contract";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { seedDemo } from "../src/demo/seed.js";
import { DEFAULT_SCORING } from "../src/domain/analytics/weights.js";
import type { TestApp } from "./helpers/app.js";
import { bearer, startTestApp } from "./helpers/app.js";
import { useTestDatabase } from "./helpers/setup.js";
import { createTenant } from "./helpers/tenant.js";

/** The demo marketplace rolled up for its last four dates: history reads the stored snapshots. */
const END = "2026-11-20";
const DATES = ["2026-11-17", "2026-11-18", "2026-11-19", "2026-11-20"];
const db = useTestDatabase({ catalog: false });
let t: TestApp;
let key: string;

beforeAll(async () => {
  await seedDemo(db(), DEFAULT_SCORING, { scale: "small", seed: 5, endDate: END, rollupDays: 4 });
  t = await startTestApp(db().pool);
  key = (await createTenant(db().pool, { plan: "enterprise" })).key;
}, 120_000);
afterAll(() => t?.close());

const get = (url: string, withKey = key) => t.app.inject({ url, headers: bearer(withKey) });
const history = async (url: string) => {
  const response = await get(url);
  expect(response.statusCode, response.body).toBe(200);
  return contract.intelligence.history.responses[200].parse(response.json());
};
const stored = async (period: string, date: string, gameId: number) => {
  const { rows } = await db().pool.query<{ redirects: number; liquidity_score: number; watch_count: number }>(
    `SELECT r.redirects, r.liquidity_score, r.watch_count FROM liquidity_snapshot_rows r
     JOIN snapshots s ON s.id = r.snapshot_id
     WHERE s.period = $1 AND s.date = $2 AND r.scope_console_id = 0 AND r.game_id = $3`,
    [period, date, gameId],
  );
  return rows[0] ?? null;
};

describe("GET /api/v1/intelligence/:id/history", () => {
  it("answers one point per computed date, oldest first, equal to the stored snapshot rows", async () => {
    const leader = (await (await get("/api/v1/intelligence?limit=1&period=day")).json()).data[0];
    const body = await history(`/api/v1/intelligence/${leader.game.id}/history`);
    expect(body.meta).toEqual({ period: "day", from: "2026-10-22", to: END });
    expect(body.data.game.id).toBe(leader.game.id);
    expect(body.data.points.map((p) => p.date)).toEqual(DATES);
    for (const point of body.data.points) {
      const row = await stored("day", point.date, leader.game.id);
      expect(point.redirects).toBe(row?.redirects ?? 0);
      expect(point.watch_count).toBe(row?.watch_count ?? 0);
      if (row) expect(point.liquidity_score).toBe(row.liquidity_score);
    }
    const last = body.data.points.at(-1);
    expect(last?.redirects).toBe(leader.demand.redirects);
    expect(last?.liquidity_score).toBe(leader.liquidity_score);
  });

  it("reads the trailing-window snapshots for period=7d and keeps to the range asked", async () => {
    const leader = (await (await get("/api/v1/intelligence?limit=1&period=7d")).json()).data[0];
    const body = await history(
      `/api/v1/intelligence/${leader.game.id}/history?period=7d&from=2026-11-18&to=2026-11-19`,
    );
    expect(body.meta).toEqual({ period: "7d", from: "2026-11-18", to: "2026-11-19" });
    expect(body.data.points.map((p) => p.date)).toEqual(["2026-11-18", "2026-11-19"]);
    const row = await stored("7d", "2026-11-19", leader.game.id);
    expect(body.data.points[1]?.redirects).toBe(row?.redirects);
  });

  it("answers a game without rows (enabled after the snapshots) with zero points, and a range before any snapshot with none", async () => {
    const { rows } = await db().pool.query<{ id: number }>(
      "SELECT max(game_id) AS id FROM liquidity_snapshot_rows WHERE rank_liquidity IS NULL",
    );
    const idle = rows[0]?.id;
    expect(idle).toBeDefined();
    // As if the game had been enabled after every rollup: no snapshot holds a row for it.
    await db().pool.query("DELETE FROM liquidity_snapshot_rows WHERE game_id = $1", [idle]);
    const body = await history(`/api/v1/intelligence/${idle}/history`);
    expect(body.data.points).toHaveLength(DATES.length);
    for (const point of body.data.points) expect(point).toMatchObject({ redirects: 0, demand_index: 0 });
    const early = await history(`/api/v1/intelligence/${idle}/history?from=2026-01-01&to=2026-01-31`);
    expect(early.data.points).toEqual([]);
  });

  it("carries the demo's 90 days of prices, every day priced, ending on the catalog's current ones", async () => {
    const { rows } = await db().pool.query<{ id: number }>(
      `SELECT o.game_id AS id FROM price_observations o JOIN games g ON g.id = o.game_id AND g.enabled
       GROUP BY o.game_id HAVING count(*) >= 6 ORDER BY o.game_id LIMIT 1`,
    );
    const id = rows[0]?.id;
    const body = await history(`/api/v1/intelligence/${id}/history?from=2026-08-23&to=${END}`);
    expect(body.data.prices).toHaveLength(90);
    expect(body.data.prices.every((p) => p.loose !== null)).toBe(true);
    expect(new Set(body.data.prices.map((p) => p.loose)).size).toBeGreaterThanOrEqual(6);
    const profile = (await (await get(`/api/v1/intelligence/${id}`)).json()).data;
    expect(body.data.prices.at(-1)).toMatchObject(profile.pricing);
  });

  it.each([
    ["a reversed range", "from=2026-11-20&to=2026-11-01", "from"],
    ["more than 90 days", "from=2026-01-01&to=2026-04-01", "from"],
    ["a from after the latest date, to left out", "from=2026-12-01", "from"],
    ["a date that is not a date", "to=2026-02-30", "to"],
    ["an unknown period", "period=year", "period"],
  ])("refuses %s with 422 naming the field", async (_name, query, field) => {
    const response = await get(`/api/v1/intelligence/101/history?${query}`);
    expect(response.statusCode, response.body).toBe(422);
    expect(response.json().error.code).toBe("validation_failed");
    expect(response.json().error.details.issues[0]).toMatchObject({ location: "query", field });
  });

  it("404s an unknown game, and meters the read like the other reads", async () => {
    expect((await get("/api/v1/intelligence/2147483647/history")).statusCode).toBe(404);
    const leader = (await (await get("/api/v1/intelligence?limit=1")).json()).data[0];
    const first = await get(`/api/v1/intelligence/${leader.game.id}/history?to=2026-11-19`);
    const second = await get(`/api/v1/intelligence/${leader.game.id}/history?to=2026-11-19`);
    expect(Number(second.headers["x-ratelimit-remaining"])).toBe(
      Number(first.headers["x-ratelimit-remaining"]) - 1,
    );
  });
});
