import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { manualClock } from "../src/clock.js";
import { DEFAULT_SCORING } from "../src/domain/analytics/weights.js";
import { addDays } from "../src/domain/analytics/windows.js";
import { rollupDate } from "../src/rollup/rollup-dates.js";
import type { TestApp } from "./helpers/app.js";
import { bearer, startTestApp } from "./helpers/app.js";
import { useTestDatabase } from "./helpers/setup.js";
import { createTenant } from "./helpers/tenant.js";

/**
 * Four queries, 7d period of D (issue 21, item 5):
 * - "fresh hit": 8 searches, all in the last week: volume rank 1, no baseline;
 * - "missing game": 5 zero-result searches on D-15 and 6 in the last week, all zero-result: volume 2;
 * - "steady seller": 5 searches on D-20 and 5 in the last week: volume rank 3;
 * - "thin past": 1 search on D-20 and 4 in the last week: volume rank 4, too thin a baseline.
 */
const D = "2026-11-20";
const db = useTestDatabase();
let t: TestApp;
let key: string;

const search = (query: string, day: string, results: number, user: string) =>
  db().pool.query(
    `INSERT INTO search_events (raw_query, query, user_id, occurred_at, day, source, device, result_count)
     VALUES ($1, $1, $2, $3, $4, 'site', 'desktop', $5)`,
    [query, user, `${day}T10:00:00Z`, day, results],
  );
const times = async (n: number, insert: (i: number) => Promise<unknown>) => {
  for (let i = 0; i < n; i++) await insert(i);
};

beforeAll(async () => {
  await times(8, (i) => search("fresh hit", addDays(D, -(i % 2)), 10, `f${i}`));
  await times(5, (i) => search("missing game", addDays(D, -15), 0, `m-old${i}`));
  await times(6, (i) => search("missing game", addDays(D, -3), 0, `m${i}`));
  await times(5, (i) => search("steady seller", addDays(D, -20), 10, `s-old${i}`));
  await times(5, (i) => search("steady seller", addDays(D, -2), 10, `s${i}`));
  await search("thin past", addDays(D, -20), 10, "t-old");
  await times(4, (i) => search("thin past", addDays(D, -1), 10, `t${i}`));
  await rollupDate(db(), D, DEFAULT_SCORING);
  t = await startTestApp(db().pool, { clock: manualClock(new Date(`${D}T12:00:00Z`)) });
  key = (await createTenant(db().pool)).key;
}, 60_000);
afterAll(() => t?.close());

const list = async (url: string) => {
  const response = await t.app.inject({ url, headers: bearer(key) });
  expect(response.statusCode, response.body).toBe(200);
  return response.json() as {
    data: { rank: number; query: string; momentum: { value: number | null; label: string } }[];
    links: { next: string | null };
  };
};
const ranked = (body: Awaited<ReturnType<typeof list>>) => body.data.map((r) => [r.query, r.rank]);

describe("/demand-intent/searches/trending", () => {
  it("excludes a query without a baseline: all its searches in the recent week, or fewer than 5 before", async () => {
    const volume = await list("/api/v1/demand-intent/searches");
    for (const query of ["fresh hit", "thin past"]) {
      expect(volume.data.find((r) => r.query === query)?.momentum, query).toEqual({
        value: null,
        label: "unknown",
      });
    }
    const trending = await list("/api/v1/demand-intent/searches/trending");
    expect(trending.data.map((r) => r.query)).toEqual(["missing game", "steady seller"]);
    // 23·6 / (7·5) and 23·5 / (7·5): the recent week against the 23 days before it.
    expect(trending.data.map((r) => r.momentum)).toEqual([
      { value: 3.9429, label: "rising" },
      { value: 3.2857, label: "rising" },
    ]);
  });
});

describe("the rank of a search row", () => {
  it("is the rank by combined search volume on every list, whatever the list's order", async () => {
    expect(ranked(await list("/api/v1/demand-intent/searches"))).toEqual([
      ["fresh hit", 1],
      ["missing game", 2],
      ["steady seller", 3],
      ["thin past", 4],
    ]);
    expect(ranked(await list("/api/v1/demand-intent/searches/trending"))).toEqual([
      ["missing game", 2],
      ["steady seller", 3],
    ]);
    expect(ranked(await list("/api/v1/demand-intent/searches/unmet"))).toEqual([
      ["missing game", 2],
      ["fresh hit", 1],
      ["steady seller", 3],
    ]);
    expect(ranked(await list("/api/v1/demand-intent/searches?sort=unmet"))).toEqual([
      ["missing game", 2],
      ["fresh hit", 1],
      ["steady seller", 3],
    ]);
  });

  it("does not disturb a cursor walk, which follows the list's own order", async () => {
    const seen: [string, number][] = [];
    let url: string | null = "/api/v1/demand-intent/searches/unmet?limit=1&paginate=cursor";
    while (url) {
      const page = await list(url);
      seen.push(...(ranked(page) as [string, number][]));
      url = page.links.next ? page.links.next.replace(/^https?:\/\/[^/]+/, "") : null;
    }
    expect(seen).toEqual([
      ["missing game", 2],
      ["fresh hit", 1],
      ["steady seller", 3],
    ]);
  });
});

describe("parameters an endpoint does not take", () => {
  const refused = async (url: string, field: string) => {
    const response = await t.app.inject({ url, headers: bearer(key) });
    expect(response.statusCode, `${url}: ${response.body}`).toBe(422);
    expect(response.json().error).toMatchObject({
      code: "validation_failed",
      message: `Invalid query parameter ${field}: is not a parameter of this endpoint`,
      details: { issues: [{ location: "query", field, message: "is not a parameter of this endpoint" }] },
    });
  };

  it("are a 422 naming them on sibling endpoints, as an invalid sort is on /intelligence", async () => {
    await refused("/api/v1/demand-intent/searches/trending?sort=volume", "sort");
    await refused("/api/v1/demand-intent/searches/unmet?sort=unmet", "sort");
    await refused("/api/v1/demand-intent/searches?game_id=981", "game_id");
    await refused("/api/v1/demand-intent/searches/conditions?console_id=1", "console_id");
    await refused("/api/v1/intelligence/101?limit=5", "limit");
    await refused("/api/v1/intelligence/101/history?sort=volume", "sort");
    await refused("/api/v1/games/titles?period=7d", "period");
    await refused("/api/v1/games/game/101?period=7d", "period");
    await refused("/api/v1/games/title/Apple%20Quest?limit=1", "limit");
    await refused("/api/v1/me?verbose=1", "verbose");
    const sort = await t.app.inject({ url: "/api/v1/intelligence?sort=volume", headers: bearer(key) });
    expect(sort.statusCode).toBe(422);
  });

  it("leave the parameters an endpoint does take working", async () => {
    const body = await list(
      "/api/v1/demand-intent/searches/trending?period=7d&date=2026-11-20&limit=5&page=1&paginate=page",
    );
    expect(body.data).toHaveLength(2);
  });
});
