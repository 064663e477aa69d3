import type { Period } from "@gmi/contract";
import { PERIODS } from "@gmi/contract";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { generateDemo } from "../src/demo/generate.js";
import { addDays } from "../src/domain/analytics/windows.js";
import { importLines } from "../src/jobs/import.js";
import { loadEventAggregates } from "../src/rollup/analytics-aggregates.js";
import { refreshCells } from "../src/rollup/event-cells.js";
import { loadQueryAggregates } from "../src/rollup/search-aggregates.js";
import { createTestDatabase, type TestDatabase } from "./helpers/database.js";

/**
 * The rollup reads daily cells (rollup/event-cells.ts), not events. Whatever the order of the loads,
 * its aggregates must equal the definitions of docs/scoring.md computed straight on the events
 * (COUNT DISTINCT over each window): checked here on a demo marketplace loaded in two files whose
 * days interleave, then after a game moves to another console.
 */
const D = "2026-11-20";
const START: Record<Period, string> = { day: D, "7d": addDays(D, -6), "30d": addDays(D, -29) };
let test: TestDatabase;

async function* ndjson(records: Iterable<object>) {
  for (const record of records) yield JSON.stringify(record);
}

const sorted = <T>(rows: T[]) => rows.map((r) => JSON.stringify(r)).sort();

/** Per game and period: redirects, distinct users, active alerts, searches; straight from the events. */
const expectedGames = async (period: Period) => {
  const { rows } = await test.db.pool.query(
    `SELECT g.id AS "gameId",
       (SELECT count(*) FROM redirect_events r WHERE r.game_id = g.id AND r.day BETWEEN $1 AND $2)::int AS redirects,
       (SELECT count(DISTINCT user_id) FROM redirect_events r WHERE r.game_id = g.id AND r.day BETWEEN $1 AND $2)::int AS "distinctUsers",
       (SELECT count(*) FROM watch_events w WHERE w.game_id = g.id
          AND w.created_at < ($2::date + 1)::timestamp AT TIME ZONE 'UTC'
          AND (w.removed_at IS NULL OR w.removed_at >= $1::date::timestamp AT TIME ZONE 'UTC'))::int AS "watchCount",
       (SELECT count(*) FROM search_events s WHERE s.game_id = g.id AND s.day BETWEEN $1 AND $2)::int AS "searchCount"
     FROM games g WHERE g.enabled ORDER BY g.id`,
    [START[period], D],
  );
  return rows;
};

const expectedSearches = async (period: Period) => {
  const { rows } = await test.db.pool.query(
    `SELECT scope AS "scopeConsoleId", query, count(*)::int AS "searchCount",
       count(DISTINCT user_id)::int AS "distinctUsers",
       count(*) FILTER (WHERE source = 'pricing')::int AS "pricingCount",
       count(*) FILTER (WHERE device = 'mobile')::int AS "mobileCount",
       sum(result_count)::int AS "resultCountSum",
       count(*) FILTER (WHERE result_count = 0)::int AS "zeroResultCount"
     FROM (
       SELECT s.*, 0 AS scope FROM search_events s
       UNION ALL
       SELECT s.*, COALESCE(s.console_id, g.console_id) FROM search_events s LEFT JOIN games g ON g.id = s.game_id
       WHERE COALESCE(s.console_id, g.console_id) IS NOT NULL
     ) x WHERE day BETWEEN $1 AND $2 GROUP BY scope, query`,
    [START[period], D],
  );
  return rows;
};

const expectedConditions = async (period: Period) => {
  const { rows } = await test.db.pool.query(
    `SELECT game, condition, count(*)::int AS "searchCount", count(DISTINCT user_id)::int AS "distinctUsers",
       count(*) FILTER (WHERE device = 'mobile')::int AS "mobileCount"
     FROM (
       SELECT 0 AS game, * FROM search_events
       UNION ALL
       SELECT game_id, * FROM search_events WHERE game_id IS NOT NULL
     ) x WHERE condition IS NOT NULL AND day BETWEEN $1 AND $2 GROUP BY game, condition`,
    [START[period], D],
  );
  return rows;
};

/** Per game and listing condition: its redirects and active alerts tagged with it; from the events. */
const expectedConditionSignals = async (period: Period) => {
  const { rows } = await test.db.pool.query(
    `SELECT game, condition, sum(redirect)::int AS redirects, sum(alert)::int AS "watchCount" FROM (
       SELECT game_id AS game, condition, 1 AS redirect, 0 AS alert FROM redirect_events
       WHERE condition IS NOT NULL AND day BETWEEN $1 AND $2
       UNION ALL
       SELECT game_id, condition, 0, 1 FROM watch_events
       WHERE condition IS NOT NULL AND created_at < ($2::date + 1)::timestamp AT TIME ZONE 'UTC'
         AND (removed_at IS NULL OR removed_at >= $1::date::timestamp AT TIME ZONE 'UTC')
     ) x GROUP BY game, condition`,
    [START[period], D],
  );
  return rows;
};

const expectAggregatesMatchEvents = async () => {
  const [{ games, conditions }, queries] = await Promise.all([
    loadEventAggregates(test.db.pool, D, { copy: !test.db.embedded }),
    loadQueryAggregates(test.db.pool, D, { copy: !test.db.embedded }),
  ]);
  for (const period of PERIODS) {
    expect(
      games[period].map(({ gameId, redirects, distinctUsers, watchCount, searchCount }) => ({
        gameId,
        redirects,
        distinctUsers,
        watchCount,
        searchCount,
      })),
    ).toEqual(await expectedGames(period));
    expect(
      sorted(
        queries[period].map((q) => ({
          scopeConsoleId: q.scopeConsoleId,
          query: q.query,
          searchCount: q.searchCount,
          distinctUsers: q.distinctUsers,
          pricingCount: q.pricingCount,
          mobileCount: q.mobileCount,
          resultCountSum: q.resultCountSum,
          zeroResultCount: q.zeroResultCount,
        })),
      ),
    ).toEqual(sorted(await expectedSearches(period)));
    const loaded = [...conditions[period]].flatMap(([game, list]) =>
      list.map((c) => ({
        game,
        condition: c.condition,
        searchCount: c.searchCount,
        distinctUsers: c.distinctUsers,
        mobileCount: c.mobileCount,
      })),
    );
    expect(sorted(loaded.filter((c) => c.searchCount > 0))).toEqual(sorted(await expectedConditions(period)));
    const signals = [...conditions[period]].flatMap(([game, list]) =>
      list.map((c) => ({
        game,
        condition: c.condition,
        redirects: c.redirects ?? 0,
        watchCount: c.watchCount ?? 0,
      })),
    );
    expect(sorted(signals.filter((c) => c.redirects > 0 || c.watchCount > 0))).toEqual(
      sorted(await expectedConditionSignals(period)),
    );
  }
};

beforeAll(async () => {
  test = await createTestDatabase();
  const records = [...generateDemo({ endDate: D, seed: 3, scale: 6_000, days: 45 })];
  const catalog = records.filter((r) => r.type === "console" || r.type === "game");
  const events = records.filter((r) => r.type !== "console" && r.type !== "game");
  // Two files whose days interleave: the second lands before, between and after the first's events.
  await importLines(test.db, ndjson([...catalog, ...events.filter((_, i) => i % 3 === 0)]));
  await importLines(test.db, ndjson(events.filter((_, i) => i % 3 !== 0)));
  // The importer leaves the days it loaded marked; the rollup's first step rebuilds them.
  await refreshCells(test.db.pool);
}, 120_000);

afterAll(async () => {
  await test?.drop();
});

describe("daily event cells", () => {
  it("leave nothing stale once the imports' days are rebuilt", async () => {
    const { rows } = await test.db.pool.query("SELECT count(*)::int AS n FROM event_cell_dirty");
    expect(rows[0].n).toBe(0);
  });

  it("give the aggregates of the events after two interleaved imports", async () => {
    await expectAggregatesMatchEvents();
  });

  it("follow events written outside the importer and a game moved to another console", async () => {
    const { rows } = await test.db.pool.query(
      "SELECT game_id FROM search_events WHERE console_id IS NULL AND game_id IS NOT NULL AND day = $1 LIMIT 1",
      [D],
    );
    const gameId = rows[0].game_id;
    await test.db.pool.query(
      "UPDATE games SET console_id = (SELECT min(id) FROM consoles WHERE id <> games.console_id) WHERE id = $1",
      [gameId],
    );
    await test.db.pool.query(
      `INSERT INTO redirect_events (game_id, user_id, occurred_at, day, condition, device)
       SELECT game_id, user_id, occurred_at - interval '3 days', day - 3, condition, device
       FROM redirect_events WHERE day = $1 LIMIT 50`,
      [D],
    );
    await test.db.pool.query("DELETE FROM watch_events WHERE id IN (SELECT id FROM watch_events LIMIT 20)");
    // The rollup rebuilds what the triggers marked before it reads (rollup/rollup-dates.ts).
    await refreshCells(test.db.pool);
    await expectAggregatesMatchEvents();
  });
});
