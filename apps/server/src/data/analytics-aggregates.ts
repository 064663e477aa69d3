import type { Period } from "@gmi/contract";
import { PERIODS } from "@gmi/contract";
import type pg from "pg";
import type { ConditionAggregate } from "../domain/analytics/conditions.js";
import type { GameAggregate } from "../domain/analytics/liquidity.js";
import type { QueryAggregate } from "../domain/analytics/search-rows.js";
import type { IsoDay } from "../domain/analytics/windows.js";
import { type CopyRow, copyNumber, readRows } from "./copy-out.js";
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

/**
 * The search aggregate is asked per (scope, query, stretch of the window): `day` D itself, `week`
 * D-6..D-1 and `month` D-29..D-7; a period's sums add up the stretches it covers. Eight plain
 * aggregates per group, where one column per period and field (eighteen FILTERed aggregates)
 * measured a third slower at 10M events. Users first in the 7-day and 30-day windows are counted by
 * the gap rule above; users of the day stretch are all first in the `day` window.
 */
const STRETCH = { day: 0, week: 1, month: 2 } as const;

/**
 * One row per (scope, query, stretch): the cells already hold each search in scope 0 and in its
 * console scope. Ordered by scope, then query in byte order (code-unit order but for astral
 * characters: the scoring's sort by query is then nearly linear, search-rows.ts). Asked in two
 * halves, the all-consoles scope and the console scopes, on two connections at once: it is the
 * largest aggregate of a rollup, and one query runs on one core.
 */
const searchSql = (scopes: "all" | "consoles") => `
SELECT query, scope_console_id,
  CASE WHEN day = $1::date THEN ${STRETCH.day} WHEN day >= $1::date - 6 THEN ${STRETCH.week} ELSE ${STRETCH.month} END AS stretch,
  SUM(searches), SUM(pricing), SUM(mobile), SUM(result_sum), SUM(zero_results), SUM(users),
  SUM(users) FILTER (WHERE ${firstIn("7d")}), SUM(users) FILTER (WHERE ${firstIn("30d")})
FROM search_day_cells WHERE ${WINDOW} AND scope_console_id ${scopes === "all" ? "= 0" : "<> 0"}
GROUP BY scope_console_id, query, stretch
ORDER BY scope_console_id, query COLLATE "C", stretch`;

/**
 * Tens of thousands of (scope, query) groups: with the default 4 MB the planner sorts them through
 * temporary files (770 ms at 2M events) instead of hashing them in memory.
 */
const withWorkMem = async <T>(pool: pg.Pool, run: (client: pg.PoolClient) => Promise<T>): Promise<T> => {
  const client = await pool.connect();
  try {
    await client.query("BEGIN");
    await client.query("SELECT set_config('work_mem', '128MB', true)");
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

/** COPY takes no bind parameters: the date goes into the SQL as a literal, once checked. */
const withDateLiteral = (sql: string, date: IsoDay) => {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(date)) throw new RangeError(`not a date: ${date}`);
  return sql.replaceAll("$1::date", `'${date}'::date`);
};

/** A search aggregate row's fields after query, scope and stretch (searchSql's column order). */
type StretchSums = {
  searches: number;
  pricing: number;
  mobile: number;
  resultSum: number;
  zeroResults: number;
  users: number;
  usersFirstIn7d: number;
  usersFirstIn30d: number;
};

const stretchSums = (row: CopyRow): StretchSums => ({
  searches: copyNumber(row[3]),
  pricing: copyNumber(row[4]),
  mobile: copyNumber(row[5]),
  resultSum: copyNumber(row[6]),
  zeroResults: copyNumber(row[7]),
  users: copyNumber(row[8]),
  usersFirstIn7d: copyNumber(row[9]),
  usersFirstIn30d: copyNumber(row[10]),
});

/** The stretches each period covers, and how its distinct users are counted. */
const PERIOD_STRETCHES: Record<Period, { stretches: number[]; users: (s: StretchSums) => number }> = {
  day: { stretches: [STRETCH.day], users: (s) => s.users },
  "7d": { stretches: [STRETCH.day, STRETCH.week], users: (s) => s.usersFirstIn7d },
  "30d": { stretches: [STRETCH.day, STRETCH.week, STRETCH.month], users: (s) => s.usersFirstIn30d },
};

/** One (scope, query)'s period aggregate from its stretch rows; null when it had no search then. */
const periodAggregate = (
  scopeConsoleId: number,
  query: string,
  stretches: readonly (StretchSums | undefined)[],
  period: Period,
): QueryAggregate | null => {
  const sumIn = (p: Period, field: (s: StretchSums) => number) =>
    PERIOD_STRETCHES[p].stretches.reduce((total, i) => total + (stretches[i] ? field(stretches[i]) : 0), 0);
  const sum = (field: (s: StretchSums) => number) => sumIn(period, field);
  const searchCount = sum((s) => s.searches);
  if (searchCount === 0) return null;
  const pricingCount = sum((s) => s.pricing);
  return {
    scopeConsoleId,
    query,
    searchCount,
    pricingCount,
    siteSearchCount: searchCount - pricingCount,
    distinctUsers: sum(PERIOD_STRETCHES[period].users),
    mobileCount: sum((s) => s.mobile),
    resultCountSum: sum((s) => s.resultSum),
    zeroResultCount: sum((s) => s.zeroResults),
    searches7d: sumIn("7d", (s) => s.searches),
    searches30d: sumIn("30d", (s) => s.searches),
  };
};

/**
 * Per (scope, normalized query), per period: the inputs of its search row. Read through COPY: at
 * ~150k rows, row objects cost the rollup's critical path ~0.2 s of parsing.
 */
export const loadQueryAggregates = async (
  db: pg.Pool,
  date: IsoDay,
  options: { copy: boolean },
): Promise<Record<Period, QueryAggregate[]>> => {
  const halves = await Promise.all(
    (["all", "consoles"] as const).map((scopes) =>
      withWorkMem(db, (client) => readRows(client, withDateLiteral(searchSql(scopes), date), options)),
    ),
  );
  const result: Record<Period, QueryAggregate[]> = { day: [], "7d": [], "30d": [] };
  const flush = (scope: number, query: string, stretches: (StretchSums | undefined)[]) => {
    for (const period of PERIODS) {
      const aggregate = periodAggregate(scope, query, stretches, period);
      if (aggregate) result[period].push(aggregate);
    }
  };
  // Rows of one (scope, query) are consecutive: gather its stretches, then emit its periods.
  let current: { scope: number; query: string; stretches: (StretchSums | undefined)[] } | null = null;
  for (const row of halves.flat()) {
    const scope = copyNumber(row[1]);
    const query = row[0] ?? "";
    if (current === null || current.scope !== scope || current.query !== query) {
      if (current) flush(current.scope, current.query, current.stretches);
      current = { scope, query, stretches: [] };
    }
    current.stretches[copyNumber(row[2])] = stretchSums(row);
  }
  if (current) flush(current.scope, current.query, current.stretches);
  return result;
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
