import type { Period } from "@gmi/contract";
import { PERIODS } from "@gmi/contract";
import type { ConditionAggregate } from "../domain/analytics/conditions.js";
import type { GameAggregate } from "../domain/analytics/liquidity.js";
import type { QueryAggregate } from "../domain/analytics/search-rows.js";
import type { IsoDay } from "../domain/analytics/windows.js";
import type { Sql } from "./sql.js";

/**
 * The raw aggregates a rollup of date D needs, for the three periods at once: every query reads the
 * 30-day window D-29..D once and splits it by period with FILTER, so `day` and `7d` cost nothing
 * extra. COUNT(DISTINCT user_id) is taken over each whole window, never summed over days.
 *
 * Instants are compared at UTC midnight (`utc(day)`), whatever the session time zone.
 */
const utc = (expr: string) => `((${expr})::timestamp AT TIME ZONE 'UTC')`;

/** `FILTER` conditions on a `day` column, per period, for a query whose $1 is D. */
const dayIn: Record<Period, string> = {
  day: "day = $1::date",
  "7d": "day >= $1::date - 6",
  "30d": "TRUE",
};

/** A watch alert is active in a window if created before its end and not removed before its start. */
const watchActive = (period: Period) => {
  const start = { day: "$1::date", "7d": "$1::date - 6", "30d": "$1::date - 29" }[period];
  return `(removed_at IS NULL OR removed_at >= ${utc(start)})`;
};

const perPeriod = (make: (p: Period, suffix: string) => string) =>
  PERIODS.map((p) => make(p, p === "7d" ? "w" : p === "30d" ? "m" : "d")).join(",\n    ");

const GAME_SQL = `
WITH r AS (
  SELECT game_id,
    ${perPeriod((p, s) => `COUNT(*) FILTER (WHERE ${dayIn[p]}) AS r_${s}, COUNT(DISTINCT user_id) FILTER (WHERE ${dayIn[p]}) AS u_${s}`)}
  FROM redirect_events WHERE day BETWEEN $1::date - 29 AND $1::date
  GROUP BY game_id
), w AS (
  SELECT game_id,
    ${perPeriod((p, s) => `COUNT(*) FILTER (WHERE ${watchActive(p)}) AS w_${s}`)}
  FROM watch_events
  WHERE created_at < ${utc("$1::date + 1")} AND (removed_at IS NULL OR removed_at >= ${utc("$1::date - 29")})
  GROUP BY game_id
), s AS (
  SELECT game_id,
    ${perPeriod((p, s) => `COUNT(*) FILTER (WHERE ${dayIn[p]}) AS s_${s}`)}
  FROM search_events WHERE day BETWEEN $1::date - 29 AND $1::date AND game_id IS NOT NULL
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
    `COUNT(*) FILTER (WHERE ${dayIn[p]}) AS n_${s}`,
    `COUNT(*) FILTER (WHERE ${dayIn[p]} AND source = 'pricing') AS p_${s}`,
    `COUNT(DISTINCT user_id) FILTER (WHERE ${dayIn[p]}) AS u_${s}`,
    `COUNT(*) FILTER (WHERE ${dayIn[p]} AND device = 'mobile') AS mob_${s}`,
    `COALESCE(SUM(result_count) FILTER (WHERE ${dayIn[p]}), 0) AS rc_${s}`,
    `COUNT(*) FILTER (WHERE ${dayIn[p]} AND result_count = 0) AS z_${s}`,
  ].join(", ");

/**
 * A search counts in the all-consoles scope and in one console scope: its own console_id, else its
 * game's console (docs/scoring.md). GROUPING SETS gives both in one pass; a search with neither
 * lands in the console set with a NULL scope, which we drop.
 */
const SEARCH_SQL = `
SELECT query, CASE WHEN GROUPING(scope) = 1 THEN 0 ELSE scope END AS scope_console_id,
  ${perPeriod(searchFields)}
FROM (
  SELECT s.query, s.user_id, s.day, s.source, s.device, s.result_count, COALESCE(s.console_id, g.console_id) AS scope
  FROM search_events s LEFT JOIN games g ON g.id = s.game_id
  WHERE s.day BETWEEN $1::date - 29 AND $1::date
) s
GROUP BY GROUPING SETS ((query), (query, scope))
HAVING GROUPING(scope) = 1 OR scope IS NOT NULL`;

type SearchRow = { query: string; scope_console_id: number } & Record<string, number>;

/** Per (scope, normalized query), per period: the inputs of its search row. */
export const loadQueryAggregates = async (
  db: Sql,
  date: IsoDay,
): Promise<Record<Period, QueryAggregate[]>> => {
  const { rows } = await db.query<SearchRow>(SEARCH_SQL, [date]);
  const forPeriod = (period: Period): QueryAggregate[] => {
    const s = SUFFIX[period];
    return rows
      .filter((row) => (row[`n_${s}`] ?? 0) > 0)
      .map((row) => {
        const searchCount = row[`n_${s}`] ?? 0;
        const pricingCount = row[`p_${s}`] ?? 0;
        return {
          scopeConsoleId: row.scope_console_id,
          query: row.query,
          searchCount,
          pricingCount,
          siteSearchCount: searchCount - pricingCount,
          distinctUsers: row[`u_${s}`] ?? 0,
          mobileCount: row[`mob_${s}`] ?? 0,
          resultCountSum: row[`rc_${s}`] ?? 0,
          zeroResultCount: row[`z_${s}`] ?? 0,
          searches7d: row.n_w ?? 0,
          searches30d: row.n_m ?? 0,
        };
      });
  };
  return { day: forPeriod("day"), "7d": forPeriod("7d"), "30d": forPeriod("30d") };
};

const CONDITION_SEARCH_SQL = `
SELECT CASE WHEN GROUPING(game_id) = 1 THEN 0 ELSE game_id END AS game_id, condition,
  ${perPeriod((p, s) => `COUNT(*) FILTER (WHERE ${dayIn[p]}) AS n_${s}, COUNT(DISTINCT user_id) FILTER (WHERE ${dayIn[p]}) AS u_${s}, COUNT(*) FILTER (WHERE ${dayIn[p]} AND device = 'mobile') AS mob_${s}`)}
FROM search_events
WHERE day BETWEEN $1::date - 29 AND $1::date AND condition IS NOT NULL
GROUP BY GROUPING SETS ((condition), (game_id, condition))
HAVING GROUPING(game_id) = 1 OR game_id IS NOT NULL`;

const CONDITION_REDIRECT_SQL = `
SELECT game_id, condition, ${perPeriod((p, s) => `COUNT(*) FILTER (WHERE ${dayIn[p]}) AS n_${s}`)}
FROM redirect_events
WHERE day BETWEEN $1::date - 29 AND $1::date AND condition IS NOT NULL
GROUP BY game_id, condition`;

const CONDITION_WATCH_SQL = `
SELECT game_id, condition, ${perPeriod((p, s) => `COUNT(*) FILTER (WHERE ${watchActive(p)}) AS n_${s}`)}
FROM watch_events
WHERE condition IS NOT NULL AND created_at < ${utc("$1::date + 1")}
  AND (removed_at IS NULL OR removed_at >= ${utc("$1::date - 29")})
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
