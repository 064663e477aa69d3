import { contract } from "@gmi/contract";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { seedDemo } from "../src/demo/seed.js";
import { DEFAULT_SCORING } from "../src/domain/analytics/weights.js";
import { rollupDate } from "../src/rollup/rollup-dates.js";
import type { TestApp } from "./helpers/app.js";
import { bearer, startTestApp } from "./helpers/app.js";
import { useTestDatabase } from "./helpers/setup.js";
import { createTenant } from "./helpers/tenant.js";

/** The demo marketplace (small), rolled up for two dates: every analytics endpoint over real HTTP handling. */
const END = "2026-11-20";
const db = useTestDatabase({ catalog: false });
let t: TestApp;
let key: string;
let freeKey: string;

beforeAll(async () => {
  await seedDemo(db(), DEFAULT_SCORING, { scale: "small", seed: 3, endDate: END, rollupDays: 1 });
  await rollupDate(db(), "2026-11-19", DEFAULT_SCORING);
  t = await startTestApp(db().pool);
  key = (await createTenant(db().pool, { plan: "enterprise" })).key;
  freeKey = (await createTenant(db().pool, { plan: "free" })).key;
}, 120_000);
afterAll(() => t?.close());

const request = (url: string, withKey = key) => t.app.inject({ url, headers: bearer(withKey) });
const ok = async (url: string, withKey = key) => {
  const response = await request(url, withKey);
  expect(response.statusCode, response.body).toBe(200);
  return response.json();
};
const relative = (url: string) => url.replace(/^https?:\/\/[^/]+/, "");

describe("GET /api/v1/intelligence", () => {
  it("defaults to the latest computed date, ranks 1..n, and matches the contract", async () => {
    const body = contract.intelligence.list.responses[200].parse(await ok("/api/v1/intelligence?limit=50"));
    expect(body.meta).toMatchObject({ period: "7d", period_date: END, sort: "liquidity" });
    expect(body.data.map((r) => r.rank)).toEqual(body.data.map((_, i) => i + 1));
    const scores = body.data.map((r) => r.liquidity_score);
    expect(scores).toEqual([...scores].sort((a, b) => b - a));
  });

  it("caps the page at the plan's max_page_size and says so", async () => {
    const body = await ok("/api/v1/intelligence?limit=500", freeKey);
    expect(body.meta.pagination.per_page).toBe(25);
    expect(body.data).toHaveLength(25);
  });

  it("walks the same rows by cursor as by page, and a cursor keeps its snapshot when a newer date lands", async () => {
    const byPage: number[] = [];
    for (let page = 1; page <= 3; page++) {
      byPage.push(
        ...(await ok(`/api/v1/intelligence?limit=20&page=${page}`)).data.map((r: { rank: number }) => r.rank),
      );
    }
    const first = await ok("/api/v1/intelligence?limit=20&paginate=cursor&date=2026-11-19");
    const second = await ok(relative(first.links.next));
    expect(second.meta.period_date).toBe("2026-11-19");
    expect(second.data[0].rank).toBe(21);
    const cursorFirst = await ok("/api/v1/intelligence?limit=20&paginate=cursor");
    const ranks = [...cursorFirst.data, ...(await ok(relative(cursorFirst.links.next))).data].map(
      (r: { rank: number }) => r.rank,
    );
    expect(ranks).toEqual(byPage.slice(0, 40));
  });

  it("shows a catalog edit (a renamed game) on a leaderboard page within seconds, without a rollup", async () => {
    const top = (await ok("/api/v1/intelligence?limit=5")).data[0];
    const renamed = `${top.game.name} (renamed)`;
    await db().pool.query("UPDATE games SET display_game_name = $1 WHERE id = $2", [renamed, top.game.id]);
    try {
      // The response cache, the data fingerprint and the catalog cache each hold about a second.
      await expect
        .poll(async () => (await ok("/api/v1/intelligence?limit=5")).data[0].game.name, {
          timeout: 10_000,
          interval: 250,
        })
        .toBe(renamed);
    } finally {
      await db().pool.query("UPDATE games SET display_game_name = $1 WHERE id = $2", [
        top.game.name,
        top.game.id,
      ]);
    }
  });

  it("scopes to one console, and an unknown console is an empty page", async () => {
    const snes = await ok("/api/v1/intelligence?console_id=2&limit=100");
    expect(snes.data.length).toBeGreaterThan(0);
    expect(new Set(snes.data.map((r: { game: { console_id: number } }) => r.game.console_id))).toEqual(
      new Set([2]),
    );
    const none = await ok("/api/v1/intelligence?console_id=999");
    expect(none.data).toEqual([]);
    expect(none.meta.pagination.total).toBe(0);
  });

  it("refuses a date without data with the available range", async () => {
    const response = await request("/api/v1/intelligence?date=2020-01-01");
    expect(response.statusCode).toBe(422);
    expect(response.json().error.details.issues[0]).toMatchObject({ location: "query", field: "date" });
    expect(response.json().error.message).toMatch(/2026-11-19 to 2026-11-20/);
  });
});

describe("profiles and conditions", () => {
  it("a leaderboard game's profile carries its rank; a game without redirects has rank null; a disabled one 404s", async () => {
    const leader = (await ok("/api/v1/intelligence?limit=1")).data[0];
    const profile = contract.intelligence.get.responses[200].parse(
      await ok(`/api/v1/intelligence/${leader.game.id}`),
    );
    expect(profile.data).toEqual(leader);
    const { rows } = await db().pool.query(
      `SELECT g.id, g.enabled FROM games g WHERE NOT EXISTS (
         SELECT 1 FROM redirect_events r WHERE r.game_id = g.id AND r.day BETWEEN DATE '2026-11-14' AND DATE '2026-11-20')
       ORDER BY g.enabled DESC, g.id`,
    );
    const quiet = rows.find((r) => r.enabled);
    const disabled = rows.find((r) => !r.enabled);
    const quietProfile = await ok(`/api/v1/intelligence/${quiet.id}`);
    expect(quietProfile.data.rank).toBeNull();
    expect(quietProfile.data.demand.redirects).toBe(0);
    if (disabled) expect((await request(`/api/v1/intelligence/${disabled.id}`)).statusCode).toBe(404);
    expect((await request("/api/v1/intelligence/2147483647")).statusCode).toBe(404);
  });

  it("recommends a priced listing condition and gives four per-game condition rows", async () => {
    const leader = (await ok("/api/v1/intelligence?limit=1")).data[0];
    const recommendation = contract.intelligence.conditions.responses[200].parse(
      await ok(`/api/v1/intelligence/${leader.game.id}/conditions?period=30d`),
    );
    const best = recommendation.data.conditions
      .filter((c) => c.price !== null)
      .sort((a, b) => b.score - a.score)[0];
    expect(recommendation.data.recommended).toBe(best?.condition);
    const conditions = contract.demandIntent.gameConditions.responses[200].parse(
      await ok(`/api/v1/demand-intent/games/${leader.game.id}/conditions?period=30d`),
    );
    expect(conditions.data.map((r) => r.condition).sort()).toEqual(["any", "cib", "loose", "new"]);
    expect(conditions.meta.game.id).toBe(leader.game.id);
    expect((await request("/api/v1/demand-intent/games/2147483647/conditions")).statusCode).toBe(404);
  });
});

describe("search demand", () => {
  it("volume, trending and unmet follow their orders and rules", async () => {
    const volume = contract.demandIntent.searches.responses[200].parse(
      await ok("/api/v1/demand-intent/searches?limit=50"),
    );
    expect(volume.data[0]?.demand_score).toBe(100);
    const counts = volume.data.map((r) => r.search.search_count);
    expect(counts).toEqual([...counts].sort((a, b) => b - a));
    const trending = await ok("/api/v1/demand-intent/searches/trending?limit=50&period=30d");
    expect(trending.meta.sort).toBe("momentum");
    for (const row of trending.data) expect(row.momentum.value).not.toBeNull();
    const unmet = await ok("/api/v1/demand-intent/searches/unmet?limit=50&period=30d");
    expect(unmet.meta.sort).toBe("unmet");
    expect(unmet.data.length).toBeGreaterThan(0);
    for (const row of unmet.data) expect(row.search.search_count).toBeGreaterThanOrEqual(5);
    const shares = unmet.data.map(
      (r: { results: { zero_result_share: number } }) => r.results.zero_result_share,
    );
    expect(shares).toEqual([...shares].sort((a, b) => b - a));
  });

  it("the market-wide condition mix is four rows whose shares sum to 1", async () => {
    const body = contract.demandIntent.conditions.responses[200].parse(
      await ok("/api/v1/demand-intent/searches/conditions"),
    );
    expect(body.data.reduce((sum, r) => sum + r.condition_share, 0)).toBeCloseTo(1, 6);
  });
});
