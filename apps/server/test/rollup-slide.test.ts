import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { intBetween, mulberry32, pick } from "../src/demo/prng.js";
import { DEFAULT_SCORING } from "../src/domain/analytics/weights.js";
import { addDays, type IsoDay } from "../src/domain/analytics/windows.js";
import { rollupDate } from "../src/rollup/rollup-dates.js";
import { deleteSnapshots } from "../src/rollup/snapshot-writer.js";
import { createTestDatabase, type TestDatabase } from "./helpers/database.js";

/**
 * A rollup slides the previous date's 7d and 30d windows by a day when their snapshots still
 * describe the cells (search-aggregates.ts, event-slide.ts). Whatever it reads, it must write
 * exactly what a rollup that aggregates the whole windows writes: here on seeded random redirects,
 * alerts and searches over 46 days (every gap between a user's events occurs, in two console
 * scopes, for enabled and disabled games, with and without conditions), plus pairs placed on the
 * edges of both windows.
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
  condition?: string | null;
};

const insertSearches = async (searches: readonly Search[]) => {
  const column = <T>(get: (s: Search) => T) => searches.map(get);
  await test.db.pool.query(
    `INSERT INTO search_events (raw_query, query, user_id, occurred_at, day, source, device, result_count, game_id, console_id, condition)
     SELECT q, q, u, (d::timestamp AT TIME ZONE 'UTC') + interval '12 hours', d, s, dev, r, g, c, cond
     FROM unnest($1::text[], $2::text[], $3::date[], $4::text[], $5::text[], $6::int[], $7::int[], $8::int[], $9::text[])
       AS x(q, u, d, s, dev, r, g, c, cond)`,
    [
      column((s) => s.query),
      column((s) => s.user),
      column((s) => s.day),
      column((s) => s.source ?? "site"),
      column((s) => s.device ?? "desktop"),
      column((s) => s.results ?? 10),
      column((s) => s.gameId ?? null),
      column((s) => s.consoleId ?? null),
      column((s) => s.condition ?? null),
    ],
  );
};

/** Seeded redirects and alerts on D-45..D for games 101..103 (103 disabled). */
const insertRedirectsAndAlerts = async () => {
  const rng = mulberry32(7);
  const redirects: Array<[number, string, IsoDay, string | null]> = [];
  const alerts: Array<[number, string, string, string | null, string | null]> = [];
  for (let back = 45; back >= 0; back--) {
    const day = addDays(D, -back);
    for (let user = 1; user <= 9; user++) {
      while (rng() < 0.4)
        redirects.push([
          pick(rng, [101, 102, 103]),
          `u${user}`,
          day,
          pick(rng, ["loose", "cib", "new", null]),
        ]);
      if (rng() < 0.15) {
        const removed = rng() < 0.6 ? addDays(day, intBetween(rng, 0, 40)) : null;
        alerts.push([
          pick(rng, [101, 102, 103]),
          `u${user}`,
          `${day}T0${intBetween(rng, 0, 9)}:00:00Z`,
          removed && `${removed}T1${intBetween(rng, 0, 9)}:00:00Z`,
          pick(rng, ["loose", "cib", "new", "any", null]),
        ]);
      }
    }
  }
  const column = <T>(rows: T[][], i: number) => rows.map((row) => row[i]);
  await test.db.pool.query(
    `INSERT INTO redirect_events (game_id, user_id, occurred_at, day, condition, device)
     SELECT g, u, (d::timestamp AT TIME ZONE 'UTC') + interval '9 hours', d, c, 'mobile'
     FROM unnest($1::int[], $2::text[], $3::date[], $4::text[]) AS x(g, u, d, c)`,
    [0, 1, 2, 3].map((i) => column(redirects as unknown[][], i)),
  );
  await test.db.pool.query(
    `INSERT INTO watch_events (game_id, user_id, created_at, removed_at, condition)
     SELECT * FROM unnest($1::int[], $2::text[], $3::timestamptz[], $4::timestamptz[], $5::text[])`,
    [0, 1, 2, 3, 4].map((i) => column(alerts as unknown[][], i)),
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
    { gameId: 103, consoleId: null },
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
          condition: pick(rng, ["loose", "cib", "new", "any", null, null]),
          ...pick(rng, places),
        });
      }
    }
  }
  return searches;
};

/** Pairs on the windows' edges: active again exactly on a leaving day's return, or 7/30 days later. */
/** A user's active days on the windows' edges (days before D), each with what it checks. */
const EDGES: ReadonlyArray<[user: string, days: number[]]> = [
  ["e1", [-30, 0]], // gap 30: leaves the 30-day window of D-1, enters D's as new
  ["e2", [-7, -1]], // returns to D-7 inside the 7-day window
  ["e3", [-30, -1]], // returns to D-30 inside the 30-day window
  ["e4", [-37, -7, 0]], // gap 30, then gap 7
  ["e5", [-31, -30]], // leaves with a gap of 1 before it
  ["e7", [-29, 0]], // gap 29: both days inside D's 30-day window
  ["e8", [-6, 0]], // gap 6: both days inside D's 7-day window
];

/** The edges as searches of one query (for game 102, condition cib), and a query gone with D-30. */
const edgeSearches = (): Search[] => [
  ...EDGES.flatMap(([user, days]) =>
    days.map((back) => ({ query: "edge", user, day: addDays(D, back), gameId: 102, condition: "cib" })),
  ),
  { query: "lone", user: "e6", day: addDays(D, -30) },
];

/** The edges as redirects (game 102, condition loose). */
const insertEdgeRedirects = () =>
  test.db.pool.query(
    `INSERT INTO redirect_events (game_id, user_id, occurred_at, day, condition, device)
     SELECT 102, u, (d::timestamp AT TIME ZONE 'UTC') + interval '9 hours', d, 'loose', 'desktop'
     FROM unnest($1::text[], $2::date[]) AS x(u, d)`,
    [
      EDGES.flatMap(([user, days]) => days.map(() => user)),
      EDGES.flatMap(([, days]) => days.map((back) => addDays(D, back))),
    ],
  );

/** Every row of a table of a date's snapshots, as stored (the snapshot id aside). */
const rowsOf = async (table: string, order: string, date: IsoDay) => {
  const { rows } = await test.db.pool.query(
    `SELECT s.period, r.* FROM ${table} r JOIN snapshots s ON s.id = r.snapshot_id
     WHERE s.date = $1 ORDER BY s.period, ${order}`,
    [date],
  );
  return rows.map(({ snapshot_id: _id, ...row }) => row);
};

const searchRows = (date: IsoDay) =>
  rowsOf("search_snapshot_rows", "r.scope_console_id, r.rank_volume", date);

/** Every snapshot row of a date: liquidity, conditions and searches. */
const snapshotRows = async (date: IsoDay) => ({
  liquidity: await rowsOf("liquidity_snapshot_rows", "r.scope_console_id, r.game_id", date),
  conditions: await rowsOf("condition_snapshot_rows", "r.game_id, r.condition", date),
  searches: await searchRows(date),
});

const rollup = (date: IsoDay) => rollupDate(test.db, date, DEFAULT_SCORING);

/** The rows a rollup of `date` writes when it cannot slide (the previous date has no snapshot). */
const rowsInFull = async (date: IsoDay) => {
  await deleteSnapshots(test.db.pool, addDays(date, -1));
  const { searchesSlid, eventsSlid } = await rollup(date);
  expect([searchesSlid, eventsSlid]).toEqual([false, false]);
  return snapshotRows(date);
};

beforeAll(async () => {
  test = await createTestDatabase();
  await test.db.pool.query(
    "INSERT INTO consoles (id, name, slug) VALUES (1, 'Super Nintendo', 'snes'), (2, 'Nintendo 64', 'n64')",
  );
  await test.db.pool.query(`INSERT INTO games (id, console_id, display_game_name, title_key, marketplace_game_name, enabled, price_complete) VALUES
    (101, 1, 'Chrono Trigger', 'chrono trigger', 'chrono-trigger', true, 100.00),
    (102, 2, 'Mario Kart 64', 'mario kart 64', 'mario-kart-64', true, NULL),
    (103, 1, 'EarthBound', 'earthbound', 'earthbound', false, 50.00)`);
  await insertSearches([...randomSearches(), ...edgeSearches()]);
  await insertRedirectsAndAlerts();
  await insertEdgeRedirects();
});

afterAll(async () => {
  await test?.drop();
});

describe("a rollup sliding the previous date's windows", () => {
  it("writes the same rows as one aggregating the whole windows, date after date", async () => {
    const dates = [-3, -2, -1, 0].map((back) => addDays(D, back));
    const slid = [];
    for (const date of dates) {
      const { searchesSlid, eventsSlid } = await rollup(date);
      slid.push([searchesSlid, eventsSlid]);
    }
    // The first date had no snapshots before it; each later one slid its predecessor's.
    expect(slid).toEqual([
      [false, false],
      [true, true],
      [true, true],
      [true, true],
    ]);
    const chained = new Map<IsoDay, Awaited<ReturnType<typeof snapshotRows>>>();
    for (const date of dates) chained.set(date, await snapshotRows(date));
    const latest = chained.get(D);
    expect([latest?.liquidity.length, latest?.conditions.length, latest?.searches.length]).toEqual([
      12, // 2 enabled games x (all consoles, their console) x 3 periods
      expect.any(Number),
      expect.any(Number),
    ]);
    expect(latest?.searches.length).toBeGreaterThan(30);
    expect(latest?.conditions.filter((r) => r.game_id === 103 && r.redirects > 0).length).toBeGreaterThan(0);
    // Latest first: each full rollup removes its predecessor's snapshots, already compared.
    for (const date of dates.slice(1).reverse()) expect(await rowsInFull(date)).toEqual(chained.get(date));
  });

  it("keeps the edge pairs exact: distinct users entering, leaving and returning", async () => {
    await rollup(addDays(D, -1));
    expect((await rollup(D)).searchesSlid).toBe(true);
    const month = (await searchRows(D)).filter((r) => r.period === "30d" && r.scope_console_id === 0);
    const week = (await searchRows(D)).filter((r) => r.period === "7d" && r.scope_console_id === 0);
    // 30d of D is D-29..D: edge searches by e1 (D), e2 (D-7, D-1), e3 (D-1), e4 (D-7, D),
    // e7 (D-29, D), e8 (D-6, D); e5 and e6 left with D-30.
    const edge = month.find((r) => r.query === "edge");
    expect([edge?.search_count, edge?.distinct_users]).toEqual([10, 6]);
    const week7 = week.find((r) => r.query === "edge");
    // 7d of D is D-6..D: e1 (D), e2 (D-1), e3 (D-1), e4 (D), e7 (D), e8 (D-6, D).
    expect([week7?.search_count, week7?.distinct_users]).toEqual([7, 6]);
    expect(month.find((r) => r.query === "lone")).toBeUndefined();
  });

  it("aggregates games in full when a game was enabled since the previous date", async () => {
    await rollup(addDays(D, -1));
    await test.db.pool.query("UPDATE games SET enabled = true WHERE id = 103");
    try {
      const { searchesSlid, eventsSlid } = await rollup(D);
      expect([searchesSlid, eventsSlid]).toEqual([true, false]);
      const rows = await snapshotRows(D);
      expect(rows.liquidity.some((r) => r.game_id === 103)).toBe(true);
      await rollup(addDays(D, -1));
      expect(await rowsInFull(D)).toEqual(rows);
    } finally {
      await test.db.pool.query("UPDATE games SET enabled = false WHERE id = 103");
    }
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
    const { searchesSlid, eventsSlid } = await rollup(D);
    expect([searchesSlid, eventsSlid]).toEqual([true, true]);
    const slidRows = await snapshotRows(D);
    expect(await rowsInFull(D)).toEqual(slidRows);
  });

  it("does not build on snapshots without a cells version", async () => {
    await rollup(addDays(D, -1));
    await test.db.pool.query("UPDATE snapshots SET cells_version = NULL WHERE date = $1", [addDays(D, -1)]);
    const { searchesSlid, eventsSlid } = await rollup(D);
    expect([searchesSlid, eventsSlid]).toEqual([false, false]);
  });
});
