import type { Period } from "@gmi/contract";
import { PERIODS } from "@gmi/contract";
import type pg from "pg";
import type { ConditionAggregate } from "../domain/analytics/conditions.js";
import type { GameAggregate } from "../domain/analytics/liquidity.js";
import type { QueryAggregate } from "../domain/analytics/search-rows.js";
import type { IsoDay } from "../domain/analytics/windows.js";
import type { Sql } from "./sql.js";

/**
 * The aggregates a rollup of date D needs, for the three periods at once, read from the daily event
 * cells (schema.prisma, "Daily event cells"; data/event-cells.ts keeps them equal to the events):
 * every query reads the cells of the 30-day window D-29..D once and splits them by period with
 * FILTER. Distinct users are exact, never a sum of daily counts: a (key, user) pair is counted by the
 * cell of its first day in the window, the one whose gap reaches back before the window's start.
 */

/** First day of each period's window, for a query whose $1 is D. */
const start: Record<Period, string> = { day: "$1::date", "7d": "$1::date - 6", "30d": "$1::date - 29" };

/** `FILTER` conditions on a cell's `day`, per period. */
const dayIn: Record<Period, string> = {
  day: "day = $1::date",
  "7d": "day >= $1::date - 6",
  "30d": "TRUE",
};

/** Cells whose pairs are new in the period's window (a `day` cell's gap is always at least 1). */
const firstIn = (p: Period) => `${dayIn[p]} AND gap > day - (${start[p]})`;

const perPeriod = (make: (p: Period, suffix: string) => string) =>
  PERIODS.map((p) => make(p, p === "7d" ? "w" : p === "30d" ? "m" : "d")).join(",\n    ");

const WINDOW = "day BETWEEN $1::date - 29 AND $1::date";

/** Alerts active in a window: created by D, minus those removed before the window (never before created). */
const activeAlerts = (p: Period) =>
  `COALESCE(SUM(created), 0) - COALESCE(SUM(removed) FILTER (WHERE day < ${start[p]}), 0)`;

const GAME_SQL = `
WITH r AS (
  SELECT game_id,
    ${perPeriod((p, s) => `SUM(redirects) FILTER (WHERE ${dayIn[p]}) AS r_${s}, SUM(users) FILTER (WHERE ${firstIn(p)}) AS u_${s}`)}
  FROM redirect_day_cells WHERE ${WINDOW}
  GROUP BY game_id
), w AS (
  SELECT game_id,
    ${perPeriod((p, s) => `${activeAlerts(p)} AS w_${s}`)}
  FROM watch_day_cells WHERE day <= $1::date
  GROUP BY game_id
), s AS (
  SELECT game_id,
    ${perPeriod((p, s) => `SUM(searches) FILTER (WHERE ${dayIn[p]}) AS s_${s}`)}
  FROM search_condition_day_cells WHERE ${WINDOW} AND game_id <> 0
  GROUP BY game_id
)
SELECT g.id AS game_id, g.console_id, g.price_complete::float8 AS price_complete,
  ${[
    ["r", "r"],
    ["r", "u"],
    ["w", "w"],
    ["s", "s"],
  ]
    .flatMap(([cte, k]) => ["d", "w", "m"].map((s) => `COALESCE(${cte}.${k}_${s}, 0)::int AS ${k}_${s}`))
    .join(", ")}
FROM games g
LEFT JOIN r ON r.game_id = g.id
LEFT JOIN w ON w.game_id = g.id
LEFT JOIN s ON s.game_id = g.id
WHERE g.enabled
ORDER BY g.id`;

type GameRow = { game_id: number; console_id: number; price_complete: number | null } & Record<
  string,
  number
>;

const SUFFIX: Record<Period, string> = { day: "d", "7d": "w", "30d": "m" };

/** Per enabled game, per period: the inputs of its liquidity row. */
export const loadGameAggregates = async (db: Sql, date: IsoDay): Promise<Record<Period, GameAggregate[]>> => {
  const { rows } = await db.query<GameRow>(GAME_SQL, [date]);
  const forPeriod = (period: Period): GameAggregate[] =>
    rows.map((row) => {
      const s = SUFFIX[period];
      return {
        gameId: row.game_id,
        consoleId: row.console_id,
        redirects: row[`r_${s}`] ?? 0,
        distinctUsers: row[`u_${s}`] ?? 0,
        watchCount: row[`w_${s}`] ?? 0,
        searchCount: row[`s_${s}`] ?? 0,
        redirects7d: row.r_w ?? 0,
        redirects30d: row.r_m ?? 0,
        priceComplete: row.price_complete,
      };
    });
  return { day: forPeriod("day"), "7d": forPeriod("7d"), "30d": forPeriod("30d") };
};

const searchFields = (p: Period, s: string) =>
  [
    `SUM(searches) FILTER (WHERE ${dayIn[p]}) AS n_${s}`,
    `SUM(pricing) FILTER (WHERE ${dayIn[p]}) AS p_${s}`,
    `SUM(users) FILTER (WHERE ${firstIn(p)}) AS u_${s}`,
    `SUM(mobile) FILTER (WHERE ${dayIn[p]}) AS mob_${s}`,
    `COALESCE(SUM(result_sum) FILTER (WHERE ${dayIn[p]}), 0)::float8 AS rc_${s}`,
    `SUM(zero_results) FILTER (WHERE ${dayIn[p]}) AS z_${s}`,
  ].join(", ");

/**
 * One row per (scope, query): the cells already hold each search in scope 0 and in its console
 * scope. Asked in two halves, the all-consoles scope and the console scopes, on two connections at
 * once: it is the largest aggregate of a rollup, and one query runs on one core.
 */
const searchSql = (scopes: "all" | "consoles") => `
SELECT query, scope_console_id, ${perPeriod(searchFields)}
FROM search_day_cells WHERE ${WINDOW} AND scope_console_id ${scopes === "all" ? "= 0" : "<> 0"}
GROUP BY scope_console_id, query`;

/**
 * Tens of thousands of (scope, query) groups: with the default 4 MB the planner sorts them through
 * temporary files (770 ms at 2M events) instead of hashing them in memory.
 */
const withWorkMem = async <T extends pg.QueryResultRow>(
  pool: pg.Pool,
  run: (client: pg.PoolClient) => Promise<pg.QueryResult<T>>,
): Promise<T[]> => {
  const client = await pool.connect();
  try {
    await client.query("BEGIN");
    await client.query("SELECT set_config('work_mem', '128MB', true)");
    const { rows } = await run(client);
    await client.query("COMMIT");
    return rows;
  } catch (error) {
    await client.query("ROLLBACK").catch(() => {});
    throw error;
  } finally {
    client.release();
  }
};

type SearchRow = { query: string; scope_console_id: number } & Record<string, number>;

/** Per (scope, normalized query), per period: the inputs of its search row. */
export const loadQueryAggregates = async (
  db: pg.Pool,
  date: IsoDay,
): Promise<Record<Period, QueryAggregate[]>> => {
  const halves = await Promise.all(
    (["all", "consoles"] as const).map((scopes) =>
      withWorkMem(db, (client) => client.query<SearchRow>(searchSql(scopes), [date])),
    ),
  );
  const rows = halves.flat();
  const forPeriod = (period: Period): QueryAggregate[] => {
    // The column names of the period, built once rather than per row (tens of thousands of rows).
    const column = (name: string) => `${name}_${SUFFIX[period]}`;
    const [n, p, u, mob, rc, z] = [
      column("n"),
      column("p"),
      column("u"),
      column("mob"),
      column("rc"),
      column("z"),
    ];
    return rows
      .filter((row) => (row[n] ?? 0) > 0)
      .map((row) => {
        const searchCount = row[n] ?? 0;
        const pricingCount = row[p] ?? 0;
        return {
          scopeConsoleId: row.scope_console_id,
          query: row.query,
          searchCount,
          pricingCount,
          siteSearchCount: searchCount - pricingCount,
          distinctUsers: row[u] ?? 0,
          mobileCount: row[mob] ?? 0,
          resultCountSum: row[rc] ?? 0,
          zeroResultCount: row[z] ?? 0,
          searches7d: row.n_w ?? 0,
          searches30d: row.n_m ?? 0,
        };
      });
  };
  return { day: forPeriod("day"), "7d": forPeriod("7d"), "30d": forPeriod("30d") };
};

const CONDITION_SEARCH_SQL = `
SELECT game_id, condition,
  ${perPeriod((p, s) => `SUM(searches) FILTER (WHERE ${dayIn[p]}) AS n_${s}, SUM(users) FILTER (WHERE ${firstIn(p)}) AS u_${s}, SUM(mobile) FILTER (WHERE ${dayIn[p]}) AS mob_${s}`)}
FROM search_condition_day_cells
WHERE ${WINDOW} AND condition <> ''
GROUP BY game_id, condition`;

const CONDITION_REDIRECT_SQL = `
SELECT game_id, c.condition, ${perPeriod((p, s) => `SUM(c.n) FILTER (WHERE ${dayIn[p]}) AS n_${s}`)}
FROM redirect_day_cells
CROSS JOIN LATERAL (VALUES ('loose', loose), ('cib', cib), ('new', sealed)) AS c(condition, n)
WHERE ${WINDOW}
GROUP BY game_id, c.condition`;

const CONDITION_WATCH_SQL = `
SELECT game_id, condition, ${perPeriod((p, s) => `${activeAlerts(p)} AS n_${s}`)}
FROM watch_day_cells
WHERE day <= $1::date AND condition <> ''
GROUP BY game_id, condition`;

type ConditionRow = { game_id: number; condition: ConditionAggregate["condition"] } & Record<string, number>;

/** Condition aggregates per period, keyed by game id (0 = market-wide). */
export type ConditionAggregates = Record<Period, Map<number, ConditionAggregate[]>>;

export const loadConditionAggregates = async (db: Sql, date: IsoDay): Promise<ConditionAggregates> => {
  const [searches, redirects, watches] = await Promise.all([
    db.query<ConditionRow>(CONDITION_SEARCH_SQL, [date]),
    db.query<ConditionRow>(CONDITION_REDIRECT_SQL, [date]),
    db.query<ConditionRow>(CONDITION_WATCH_SQL, [date]),
  ]);
  const forPeriod = (period: Period) => {
    const s = SUFFIX[period];
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
    for (const row of searches.rows) {
      if ((row[`n_${s}`] ?? 0) === 0) continue;
      const e = entry(row.game_id, row.condition);
      e.searchCount = row[`n_${s}`] ?? 0;
      e.distinctUsers = row[`u_${s}`] ?? 0;
      e.mobileCount = row[`mob_${s}`] ?? 0;
    }
    for (const row of redirects.rows) {
      if ((row[`n_${s}`] ?? 0) > 0) entry(row.game_id, row.condition).redirects = row[`n_${s}`];
    }
    for (const row of watches.rows) {
      if ((row[`n_${s}`] ?? 0) > 0) entry(row.game_id, row.condition).watchCount = row[`n_${s}`];
    }
    if (!byGame.has(0)) byGame.set(0, new Map());
    return new Map([...byGame].map(([gameId, conditions]) => [gameId, [...conditions.values()]]));
  };
  return { day: forPeriod("day"), "7d": forPeriod("7d"), "30d": forPeriod("30d") };
};
