import type { Period } from "@gmi/contract";
import { PERIODS } from "@gmi/contract";
import type pg from "pg";
import { type ConditionAggregate, MARKET_WIDE } from "../domain/analytics/conditions.js";
import type { GameAggregate } from "../domain/analytics/liquidity.js";
import type { IsoDay } from "../domain/analytics/windows.js";
import { windowStart } from "../domain/rollup/slide.js";
import { cellsVersion as readCellsVersion } from "./cell-versions.js";
import { slidableEventSnapshots, slideEventSums } from "./event-slide.js";
import {
  ALERT_SUM,
  type EventSums,
  REDIRECT_SUM_OF_CONDITION,
  REDIRECT_SUMS,
  SEARCH_SUMS,
  type SumRow,
  sumColumn,
  valueIn,
} from "./event-sums.js";
import { daySql, firstInWindowSql, inWindowSql, LONGEST_WINDOW_SQL } from "./window-sql.js";

/**
 * The aggregates a rollup of date D needs, for the three periods at once, read from the daily event
 * cells (schema.prisma, "Daily event cells"; rollup/event-cells.ts keeps them equal to the events):
 * every query reads the cells of the 30-day window D-29..D once and splits them by period with
 * FILTER (the search aggregate, the largest: search-aggregates.ts). Distinct users are exact, never a sum of daily counts: a (key, user) pair is counted by the
 * cell of its first day in the window, the one whose gap reaches back before the window's start.
 */

/** Alerts active in a window: created by D, minus those removed before the window (never before created). */
const activeAlerts = (period: Period) =>
  `COALESCE(SUM(created), 0) - COALESCE(SUM(removed) FILTER (WHERE day < ${daySql(windowStart(period))}), 0)`;

/** Per period, a column per sum of a cell table: its pairs first in the window, its counts in it. */
const sumsPerPeriod = (sums: readonly string[]) =>
  PERIODS.flatMap((period) =>
    sums.map((sum) =>
      sum === "users"
        ? `SUM(users) FILTER (WHERE ${firstInWindowSql(period)}) AS ${sumColumn(sum, period)}`
        : `SUM(${sum}) FILTER (WHERE ${inWindowSql(period)}) AS ${sumColumn(sum, period)}`,
    ),
  ).join(",\n  ");

/**
 * Runs one aggregate on a connection of its own, in a repeatable-read transaction (everything it
 * reads, the cells and their version, from one view) whose settings end with it:
 * - work_mem 128 MB: tens of thousands of (scope, query) groups are hashed in memory, where the
 *   default 4 MB had the planner sort them through temporary files (770 ms at 2M events);
 * - no parallel workers: a rollup already runs its aggregates side by side on every core, and the
 *   workers' coordination only added CPU (the game and condition aggregates at 10M events: 0.49-0.62
 *   core-seconds with them, 0.36-0.38 without, and no longer);
 * - no JIT compilation: its statements run for a few hundred milliseconds at most, and compiling
 *   one took ~30 ms whenever the planner overestimated its rows.
 */
export const inRollupSession = async <T>(
  pool: pg.Pool,
  run: (client: pg.PoolClient) => Promise<T>,
): Promise<T> => {
  const client = await pool.connect();
  try {
    await client.query("BEGIN ISOLATION LEVEL REPEATABLE READ");
    await client.query(
      "SELECT set_config('work_mem', '128MB', true), set_config('max_parallel_workers_per_gather', '0', true), set_config('jit', 'off', true)",
    );
    const result = await run(client);
    await client.query("COMMIT");
    return result;
  } catch (error) {
    await client.query("ROLLBACK").catch(() => {});
    throw error;
  } finally {
    client.release();
  }
};

/**
 * Makes the rest of a rollup session's transaction read through indexes only. A slide reads keyed
 * ranges (cells of a few days and gaps, the previous date's snapshot rows), and those rows were
 * written moments before: with statistics that do not know them yet, the planner chose a
 * sequential scan of every snapshot kept.
 */
export const readByKeysOnly = async (client: pg.PoolClient): Promise<void> => {
  await client.query("SELECT set_config('enable_seqscan', 'off', true)");
};

/**
 * The games' and conditions' aggregates come from one pass over each cell table: redirects per
 * game (its conditions as columns), alerts and searches per (game, condition). A game's alert and
 * search totals are the sums of its condition rows (condition '' holds those without one), added
 * up here rather than asked of the same cells a second time.
 */
const REDIRECT_SQL = `
SELECT game_id,
  ${sumsPerPeriod(REDIRECT_SUMS)}
FROM redirect_day_cells WHERE ${LONGEST_WINDOW_SQL}
GROUP BY game_id`;

const WATCH_SQL = `
SELECT game_id, condition,
  ${PERIODS.map((period) => `${activeAlerts(period)} AS ${sumColumn(ALERT_SUM, period)}`).join(",\n  ")}
FROM watch_day_cells WHERE day <= $1::date
GROUP BY game_id, condition`;

const SEARCH_CONDITION_SQL = `
SELECT game_id, condition,
  ${sumsPerPeriod(SEARCH_SUMS)}
FROM search_condition_day_cells WHERE ${LONGEST_WINDOW_SQL}
GROUP BY game_id, condition`;

const GAMES_SQL =
  "SELECT id AS game_id, console_id, price_complete::float8 AS price_complete FROM games WHERE enabled ORDER BY id";

type GameRow = { game_id: number; console_id: number; price_complete: number | null };

/** Condition aggregates per period, keyed by game id (0 = market-wide). */
export type ConditionAggregates = Record<Period, Map<number, ConditionAggregate[]>>;

export type EventAggregates = { games: Record<Period, GameAggregate[]>; conditions: ConditionAggregates };

/**
 * Per enabled game, per period: the inputs of its liquidity row; per game (every game, and 0 for
 * the market) and period: the inputs of its condition rows. The redirect and search sums are slid
 * from the previous date's snapshots when those still describe the cells (event-slide.ts), else
 * aggregated over the whole windows; with the cells version they were read at, and which it was.
 */
export const loadEventAggregates = async (
  db: pg.Pool,
  date: IsoDay,
  options: { copy: boolean },
): Promise<EventAggregates & { cellsVersion: number; slid: boolean }> => {
  // One connection, one statement after another: small next to the search aggregate, which has the
  // other connections (a rollup takes at most six of a server's pool).
  const { games, sums, cellsVersion, slid } = await inRollupSession(db, async (client) => {
    const cellsVersion = await readCellsVersion(client);
    const games = (await client.query<GameRow>(GAMES_SQL)).rows;
    const watches = (await client.query<SumRow>(WATCH_SQL, [date])).rows;
    const before = await slidableEventSnapshots(client, date);
    if (before) await readByKeysOnly(client);
    const slidOrFull = before
      ? await slideEventSums(client, date, before, options)
      : {
          redirects: (await client.query<SumRow>(REDIRECT_SQL, [date])).rows,
          searches: (await client.query<SumRow>(SEARCH_CONDITION_SQL, [date])).rows,
        };
    return { games, sums: { ...slidOrFull, watches }, cellsVersion, slid: before !== null };
  });
  const byPeriod = <T>(build: (period: Period) => T): Record<Period, T> => ({
    day: build("day"),
    "7d": build("7d"),
    "30d": build("30d"),
  });
  return {
    games: byPeriod((period) => gameAggregates(games, sums, period)),
    conditions: byPeriod((period) => conditionAggregates(sums, period)),
    cellsVersion,
    slid,
  };
};

/** Adds up a column of rows per game. */
const totalPerGame = (rows: readonly SumRow[], name: string, period: Period) => {
  const totals = new Map<number, number>();
  for (const row of rows)
    totals.set(row.game_id, (totals.get(row.game_id) ?? 0) + valueIn(row, name, period));
  return totals;
};

const gameAggregates = (games: readonly GameRow[], sums: EventSums, period: Period): GameAggregate[] => {
  const redirects = new Map(sums.redirects.map((row) => [row.game_id, row]));
  const watches = totalPerGame(sums.watches, ALERT_SUM, period);
  const searches = totalPerGame(sums.searches, "searches", period);
  return games.map((game) => {
    const gameRedirects = redirects.get(game.game_id);
    return {
      gameId: game.game_id,
      consoleId: game.console_id,
      redirects: valueIn(gameRedirects, "redirects", period),
      distinctUsers: valueIn(gameRedirects, "users", period),
      watchCount: watches.get(game.game_id) ?? 0,
      searchCount: searches.get(game.game_id) ?? 0,
      redirects7d: valueIn(gameRedirects, "redirects", "7d"),
      redirects30d: valueIn(gameRedirects, "redirects", "30d"),
      priceComplete: game.price_complete,
    };
  });
};

const conditionAggregates = (sums: EventSums, period: Period): Map<number, ConditionAggregate[]> => {
  const byGame = new Map<number, Map<string, ConditionAggregate>>();
  const entry = (gameId: number, condition: ConditionAggregate["condition"]) => {
    const conditions = byGame.get(gameId) ?? new Map<string, ConditionAggregate>();
    byGame.set(gameId, conditions);
    const found = conditions.get(condition) ?? {
      condition,
      searchCount: 0,
      distinctUsers: 0,
      mobileCount: 0,
    };
    conditions.set(condition, found);
    return found;
  };
  // Condition '' (a game's searches and alerts without one) counts in the game totals only.
  for (const row of sums.searches) {
    if (row.condition === "" || valueIn(row, "searches", period) === 0) continue;
    const aggregate = entry(row.game_id, row.condition as ConditionAggregate["condition"]);
    aggregate.searchCount = valueIn(row, "searches", period);
    aggregate.distinctUsers = valueIn(row, "users", period);
    aggregate.mobileCount = valueIn(row, "mobile", period);
  }
  // A redirect cell counts each listing condition in a column of its own.
  for (const row of sums.redirects) {
    for (const [condition, sum] of Object.entries(REDIRECT_SUM_OF_CONDITION)) {
      const n = valueIn(row, sum, period);
      if (n > 0) entry(row.game_id, condition as ConditionAggregate["condition"]).redirects = n;
    }
  }
  for (const row of sums.watches) {
    const n = valueIn(row, ALERT_SUM, period);
    if (row.condition !== "" && n > 0)
      entry(row.game_id, row.condition as ConditionAggregate["condition"]).watchCount = n;
  }
  if (!byGame.has(MARKET_WIDE)) byGame.set(MARKET_WIDE, new Map());
  return new Map([...byGame].map(([gameId, conditions]) => [gameId, [...conditions.values()]]));
};
