import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { deleteSnapshots } from "../src/data/snapshot-writer.js";
import { DEFAULT_SCORING } from "../src/domain/analytics/weights.js";
import { addDays, type IsoDay } from "../src/domain/analytics/windows.js";
import { intBetween, mulberry32, pick } from "../src/domain/demo/prng.js";
import { rollupDate } from "../src/jobs/rollup.js";
import { createTestDatabase, type TestDatabase } from "./helpers/database.js";

/**
 * A rollup slides the previous date's 7d and 30d search windows by a day when their snapshots still
 * describe the cells (search-aggregates.ts). Whatever it reads, it must write exactly what a rollup
 * that aggregates the whole window writes: here on seeded random searches over 46 days (every gap
 * between a user's searches occurs, in two console scopes), plus pairs placed on the edges of both
 * windows.
 */
const D = "2026-11-20";
let test: TestDatabase;

type Search = {
  query: string;
  user: string;
  day: IsoDay;
  device?: string;
  source?: string;
  results?: number;
  gameId?: number | null;
  consoleId?: number | null;
};

const insertSearches = async (searches: readonly Search[]) => {
  const column = <T>(get: (s: Search) => T) => searches.map(get);
  await test.db.pool.query(
    `INSERT INTO search_events (raw_query, query, user_id, occurred_at, day, source, device, result_count, game_id, console_id)
     SELECT q, q, u, (d::timestamp AT TIME ZONE 'UTC') + interval '12 hours', d, s, dev, r, g, c
     FROM unnest($1::text[], $2::text[], $3::date[], $4::text[], $5::text[], $6::int[], $7::int[], $8::int[])
       AS x(q, u, d, s, dev, r, g, c)`,
    [
      column((s) => s.query),
      column((s) => s.user),
      column((s) => s.day),
      column((s) => s.source ?? "site"),
      column((s) => s.device ?? "desktop"),
      column((s) => s.results ?? 10),
      column((s) => s.gameId ?? null),
      column((s) => s.consoleId ?? null),
    ],
  );
};

/** Seeded searches on D-45..D: 9 users, 6 queries, every day each user searches with p = 0.45. */
const randomSearches = (): Search[] => {
  const rng = mulberry32(20261120);
  const queries = ["chrono trigger", "earthbound", "zelda", "mario kart 64", "metroid", "f-zero"];
  const places = [
    { gameId: null, consoleId: null },
    { gameId: 101, consoleId: null },
    { gameId: 102, consoleId: null },
    { gameId: null, consoleId: 1 },
    { gameId: null, consoleId: 2 },
  ];
  const searches: Search[] = [];
  for (let back = 45; back >= 0; back--) {
    for (let user = 1; user <= 9; user++) {
      while (rng() < 0.45) {
        searches.push({
          query: queries[Math.min(Math.floor(rng() * rng() * queries.length), queries.length - 1)] as string,
          user: `u${user}`,
          day: addDays(D, -back),
          device: rng() < 0.7 ? "mobile" : "desktop",
          source: rng() < 0.5 ? "pricing" : "site",
          results: rng() < 0.25 ? 0 : intBetween(rng, 1, 40),
          ...pick(rng, places),
        });
      }
    }
  }
  return searches;
};

/** Pairs on the windows' edges: active again exactly on a leaving day's return, or 7/30 days later. */
const edgeSearches = (): Search[] =>
  [
    ["edge", "e1", [-30, 0]], // gap 30: leaves the 30-day window of D-1, enters D's as new
    ["edge", "e2", [-7, -1]], // returns to D-7 inside the 7-day window
    ["edge", "e3", [-30, -1]], // returns to D-30 inside the 30-day window
    ["edge", "e4", [-37, -7, 0]], // gap 30, then gap 7
    ["edge", "e5", [-31, -30]], // leaves with a gap of 1 before it
    ["lone", "e6", [-30]], // the only search of its query: gone from D's 30-day window
  ].flatMap(([query, user, days]) =>
    (days as number[]).map((back) => ({
      query: query as string,
      user: user as string,
      day: addDays(D, back),
    })),
  );

/** Every search row of a date's snapshots, as stored (the snapshot id aside). */
const searchRows = async (date: IsoDay) => {
  const { rows } = await test.db.pool.query(
    `SELECT s.period, r.* FROM search_snapshot_rows r JOIN snapshots s ON s.id = r.snapshot_id
     WHERE s.date = $1 ORDER BY s.period, r.scope_console_id, r.rank_volume`,
    [date],
  );
  return rows.map(({ snapshot_id: _id, ...row }) => row);
};

const rollup = (date: IsoDay) => rollupDate(test.db, date, DEFAULT_SCORING);

/** The rows a rollup of `date` writes when it cannot slide (the previous date has no snapshot). */
const rowsInFull = async (date: IsoDay) => {
  await deleteSnapshots(test.db.pool, addDays(date, -1));
  expect((await rollup(date)).searchesSlid).toBe(false);
  return searchRows(date);
};

beforeAll(async () => {
  test = await createTestDatabase();
  await test.db.pool.query(
    "INSERT INTO consoles (id, name, slug) VALUES (1, 'Super Nintendo', 'snes'), (2, 'Nintendo 64', 'n64')",
  );
  await test.db.pool.query(`INSERT INTO games (id, console_id, display_game_name, title_key, marketplace_game_name, enabled) VALUES
    (101, 1, 'Chrono Trigger', 'chrono trigger', 'chrono-trigger', true),
    (102, 2, 'Mario Kart 64', 'mario kart 64', 'mario-kart-64', true)`);
  await insertSearches([...randomSearches(), ...edgeSearches()]);
});

afterAll(async () => {
  await test?.drop();
});

describe("a rollup sliding the previous date's search windows", () => {
  it("writes the same rows as one aggregating the whole windows, date after date", async () => {
    const dates = [-3, -2, -1, 0].map((back) => addDays(D, back));
    const slid = [];
    for (const date of dates) slid.push((await rollup(date)).searchesSlid);
    // The first date had no snapshots before it; each later one slid its predecessor's.
    expect(slid).toEqual([false, true, true, true]);
    const chained = new Map<IsoDay, unknown[]>();
    for (const date of dates) chained.set(date, await searchRows(date));
    expect((chained.get(D) ?? []).length).toBeGreaterThan(30);
    // Latest first: each full rollup removes its predecessor's snapshots, already compared.
    for (const date of dates.slice(1).reverse()) expect(await rowsInFull(date)).toEqual(chained.get(date));
  });

  it("keeps the edge pairs exact: distinct users entering, leaving and returning", async () => {
    await rollup(addDays(D, -1));
    expect((await rollup(D)).searchesSlid).toBe(true);
    const month = (await searchRows(D)).filter((r) => r.period === "30d" && r.scope_console_id === 0);
    const week = (await searchRows(D)).filter((r) => r.period === "7d" && r.scope_console_id === 0);
    // 30d of D is D-29..D: edge searches by e1 (D), e2 (D-7, D-1), e3 (D-1), e4 (D-7, D); e5 and
    // e6 left with D-30.
    const edge = month.find((r) => r.query === "edge");
    expect([edge?.search_count, edge?.distinct_users]).toEqual([6, 4]);
    const week7 = week.find((r) => r.query === "edge");
    // 7d of D is D-6..D: e1 (D), e2 (D-1), e3 (D-1), e4 (D).
    expect([week7?.search_count, week7?.distinct_users]).toEqual([4, 4]);
    expect(month.find((r) => r.query === "lone")).toBeUndefined();
  });

  it("aggregates in full when a rebuild touched the previous date's window, and slides past one that did not", async () => {
    await rollup(addDays(D, -1));
    // A late search inside the window rebuilds days the snapshots of D-1 were read from.
    await insertSearches([{ query: "late", user: "x1", day: addDays(D, -15) }]);
    const afterLate = await rollup(D);
    expect(afterLate.searchesSlid).toBe(false);
    const late = (await searchRows(D)).find((r) => r.period === "30d" && r.query === "late");
    expect(late?.search_count).toBe(1);
    // D-1 again, then a search after D: its rebuild starts at D+1, outside D-1's windows.
    await rollup(addDays(D, -1));
    await insertSearches([{ query: "tomorrow", user: "x2", day: addDays(D, 1) }]);
    expect((await rollup(D)).searchesSlid).toBe(true);
    const slidRows = await searchRows(D);
    expect(await rowsInFull(D)).toEqual(slidRows);
  });

  it("does not build on snapshots without a cells version", async () => {
    await rollup(addDays(D, -1));
    await test.db.pool.query("UPDATE snapshots SET cells_version = NULL WHERE date = $1", [addDays(D, -1)]);
    expect((await rollup(D)).searchesSlid).toBe(false);
  });
});
