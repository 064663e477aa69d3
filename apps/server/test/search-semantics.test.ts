import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { manualClock } from "../src/clock.js";
import type { SearchSnapshotFields } from "../src/domain/analytics/search-rows.js";
import { DEFAULT_SCORING } from "../src/domain/analytics/weights.js";
import { addDays } from "../src/domain/analytics/windows.js";
import { rollupDate } from "../src/rollup/rollup-dates.js";
import { replaceSnapshot } from "../src/rollup/snapshot-writer.js";
import type { TestApp } from "./helpers/app.js";
import { bearer, startTestApp } from "./helpers/app.js";
import { useTestDatabase, withClient } from "./helpers/setup.js";
import { createTenant } from "./helpers/tenant.js";

/**
 * Five queries, 7d period of D (issue 21, item 5; issue 26, item 1):
 * - "fresh hit": 8 searches, all in the last week: volume rank 1;
 * - "missing game": 5 zero-result searches on D-15 and 6 in the last week, all zero-result: volume 2;
 * - "steady seller": 5 searches on D-20 and 5 in the last week: volume rank 3;
 * - "thin past": 1 search on D-20 and 4 in the last week: volume rank 4;
 * - "rare find": 3 searches in 30 days (D-25, D-10, D-2), one of them in the period: volume rank 5.
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
  for (const back of [25, 10, 2]) await search("rare find", addDays(D, -back), 10, `r${back}`);
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
    meta: { pagination: { total: number; last_page?: number } };
    links: { next: string | null };
  };
};
const ranked = (body: Awaited<ReturnType<typeof list>>) => body.data.map((r) => [r.query, r.rank]);
const relative = (url: string) => url.replace(/^https?:\/\/[^/]+/, "");

/** A stored search row of a hand-written snapshot: the fields a list shows, the rest zero. */
const searchRow = (
  row: Pick<SearchSnapshotFields, "query" | "searchCount" | "rankVolume" | "momentumValue" | "rankMomentum">,
): SearchSnapshotFields => ({
  scopeConsoleId: 0,
  pricingCount: 0,
  siteSearchCount: row.searchCount,
  distinctUsers: 1,
  mobileShare: 0,
  avgResultCount: 0,
  zeroResultCount: 0,
  zeroResultShare: 0,
  momentumLabel: row.momentumValue === null ? "unknown" : row.momentumValue >= 1.2 ? "rising" : "cooling",
  demandScore: 1,
  rankUnmet: null,
  mobileCount: 0,
  resultCountSum: 0,
  ...row,
});

describe("momentum on the search lists", () => {
  it("is the 7-day pace against the whole 30 days: every query has one, 3 searches in 30 days included", async () => {
    const volume = await list("/api/v1/demand-intent/searches?limit=100");
    // (n7 / 7) ÷ (n30 / 30): 30·8/(7·8), 30·4/(7·5), 30·6/(7·11), 30·5/(7·10), 30·1/(7·3).
    expect(Object.fromEntries(volume.data.map((r) => [r.query, r.momentum]))).toEqual({
      "fresh hit": { value: 4.2857, label: "rising" },
      "thin past": { value: 3.4286, label: "rising" },
      "missing game": { value: 2.3377, label: "rising" },
      "steady seller": { value: 2.1429, label: "rising" },
      "rare find": { value: 1.4286, label: "rising" },
    });
  });

  it("sort=momentum and /trending list every row of the volume list, fastest first", async () => {
    const volume = await list("/api/v1/demand-intent/searches?limit=100");
    const byMomentum = await list("/api/v1/demand-intent/searches?sort=momentum&limit=100");
    const trending = await list("/api/v1/demand-intent/searches/trending?limit=100");
    expect(byMomentum.data).toHaveLength(volume.data.length);
    expect(byMomentum.meta.pagination.total).toBe(volume.meta.pagination.total);
    const order = ["fresh hit", "thin past", "missing game", "steady seller", "rare find"];
    expect(byMomentum.data.map((r) => r.query)).toEqual(order);
    expect(trending.data.map((r) => r.query)).toEqual(order);
  });

  it("/trending leaves out only the queries without momentum, which sort=momentum ranks last", async () => {
    // No rollup writes a search row without momentum (a row has a search in its period, inside the
    // 30 days): a snapshot written by hand, of the day before, holds one.
    const rows = [
      searchRow({ query: "quiet", searchCount: 9, rankVolume: 1, momentumValue: null, rankMomentum: 3 }),
      searchRow({ query: "up", searchCount: 2, rankVolume: 2, momentumValue: 2, rankMomentum: 1 }),
      searchRow({ query: "down", searchCount: 1, rankVolume: 3, momentumValue: 0.5, rankMomentum: 2 }),
    ];
    const date = addDays(D, -1);
    await withClient(db(), (client) =>
      replaceSnapshot(
        client,
        { period: "7d", date, durationMs: 1 },
        { liquidity: [], searches: rows, conditions: [] },
        { copy: !db().embedded },
      ),
    );
    const byMomentum = await list(`/api/v1/demand-intent/searches?sort=momentum&date=${date}`);
    expect(byMomentum.data.map((r) => [r.query, r.momentum.value])).toEqual([
      ["up", 2],
      ["down", 0.5],
      ["quiet", null],
    ]);
    const trending = await list(`/api/v1/demand-intent/searches/trending?date=${date}&limit=2`);
    expect(trending.data.map((r) => r.query)).toEqual(["up", "down"]);
    expect(trending.meta.pagination).toMatchObject({ total: 2, last_page: 1 });
    expect(trending.links.next).toBeNull();
    const walked = await list(`/api/v1/demand-intent/searches/trending?date=${date}&limit=1&paginate=cursor`);
    const second = await list(relative(walked.links.next ?? ""));
    expect(second.data.map((r) => r.query)).toEqual(["down"]);
    expect(second.links.next).toBeNull();
  });
});

describe("the rank of a search row", () => {
  it("is the rank by combined search volume on every list, whatever the list's order", async () => {
    expect(ranked(await list("/api/v1/demand-intent/searches"))).toEqual([
      ["fresh hit", 1],
      ["missing game", 2],
      ["steady seller", 3],
      ["thin past", 4],
      ["rare find", 5],
    ]);
    expect(ranked(await list("/api/v1/demand-intent/searches/trending"))).toEqual([
      ["fresh hit", 1],
      ["thin past", 4],
      ["missing game", 2],
      ["steady seller", 3],
      ["rare find", 5],
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
      url = page.links.next ? relative(page.links.next) : null;
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
    expect(body.data).toHaveLength(5);
  });
});
