import type { Period } from "@gmi/contract";
import { PERIODS } from "@gmi/contract";
import type pg from "pg";
import type { QueryAggregate } from "../domain/analytics/search-rows.js";
import type { IsoDay } from "../domain/analytics/windows.js";
import { firstIn, inRollupSession, WINDOW } from "./analytics-aggregates.js";
import { copyNumber, readRows } from "./copy-out.js";

/**
 * The search aggregate of a rollup, read from the search cells like the others (the window and the
 * gap rule for distinct users: analytics-aggregates.ts). It is asked per (scope, query, stretch of the window): `day` D itself, `week`
 * D-6..D-1 and `month` D-29..D-7; a period's sums add up the stretches it covers. Eight plain
 * aggregates per group, where one column per period and field (eighteen FILTERed aggregates)
 * measured a third slower at 10M events. Users first in the 7-day and 30-day windows are counted by
 * the gap rule; users of the day stretch are all first in the `day` window.
 */
const STRETCH = { day: 0, week: 1, month: 2 } as const;

/** The search aggregate's two halves: the all-consoles scope, and every console scope. */
type ScopeHalf = "all" | "consoles";

/**
 * One row per (scope, query, stretch): the cells already hold each search in scope 0 and in its
 * console scope. Ordered by scope, then query in byte order (code-unit order but for astral
 * characters: the scoring's sort by query is then nearly linear, search-rows.ts). Asked in two
 * halves, the all-consoles scope and the console scopes, on two connections at once: it is the
 * largest aggregate of a rollup, and one query runs on one core. `result_sum` is a bigint, whose
 * SUM is a numeric (arbitrary precision, ~10% of the query's time): summed as float8 instead, exact
 * up to 2^53.
 */
const searchSql = (scopes: ScopeHalf) => `
SELECT query, scope_console_id,
  CASE WHEN day = $1::date THEN ${STRETCH.day} WHEN day >= $1::date - 6 THEN ${STRETCH.week} ELSE ${STRETCH.month} END AS stretch,
  SUM(searches), SUM(pricing), SUM(mobile), SUM(result_sum::float8), SUM(zero_results), SUM(users),
  SUM(users) FILTER (WHERE ${firstIn("7d")}), SUM(users) FILTER (WHERE ${firstIn("30d")})
FROM search_day_cells WHERE ${WINDOW} AND scope_console_id ${scopes === "all" ? "= 0" : "<> 0"}
GROUP BY scope_console_id, query, stretch
ORDER BY scope_console_id, query COLLATE "C", stretch`;

/** COPY takes no bind parameters: the date goes into the SQL as a literal, once checked. */
const withDateLiteral = (sql: string, date: IsoDay) => {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(date)) throw new RangeError(`not a date: ${date}`);
  return sql.replaceAll("$1::date", `'${date}'::date`);
};

/**
 * A search aggregate row's sums after query, scope and stretch, in searchSql's column order: the
 * index of each in a stretch's block of a (scope, query)'s sums.
 */
const SUM = {
  searches: 0,
  pricing: 1,
  mobile: 2,
  resultSum: 3,
  zeroResults: 4,
  users: 5,
  usersFirstIn7d: 6,
  usersFirstIn30d: 7,
} as const;
const SUM_COUNT = 8;
const FIRST_SUM_COLUMN = 3;

/**
 * A (scope, query)'s sums: a block of SUM_COUNT per stretch, by STRETCH (a missing stretch is
 * zeros). Plain numbers in one reused array: ~300k rows pass through here on the rollup's single
 * Node thread, where an object per stretch and a closure per sum showed in profiles.
 */
type QuerySums = Float64Array;

/** Each period covers the stretches 0..n-1 (day; day and week; all three). */
const STRETCHES_IN: Record<Period, number> = { day: 1, "7d": 2, "30d": 3 };

/** How a period's distinct users are counted (the gap rule, module comment). */
const USERS_OF: Record<Period, number> = {
  day: SUM.users,
  "7d": SUM.usersFirstIn7d,
  "30d": SUM.usersFirstIn30d,
};

const sumOver = (sums: QuerySums, stretches: number, field: number) => {
  let total = 0;
  for (let stretch = 0; stretch < stretches; stretch++) total += sums[stretch * SUM_COUNT + field] as number;
  return total;
};

/** One (scope, query)'s period aggregate from its stretch sums; null when it had no search then. */
const periodAggregate = (
  scopeConsoleId: number,
  query: string,
  sums: QuerySums,
  period: Period,
): QueryAggregate | null => {
  const stretches = STRETCHES_IN[period];
  const searchCount = sumOver(sums, stretches, SUM.searches);
  if (searchCount === 0) return null;
  const pricingCount = sumOver(sums, stretches, SUM.pricing);
  return {
    scopeConsoleId,
    query,
    searchCount,
    pricingCount,
    siteSearchCount: searchCount - pricingCount,
    distinctUsers: sumOver(sums, stretches, USERS_OF[period]),
    mobileCount: sumOver(sums, stretches, SUM.mobile),
    resultCountSum: sumOver(sums, stretches, SUM.resultSum),
    zeroResultCount: sumOver(sums, stretches, SUM.zeroResults),
    searches7d: sumOver(sums, STRETCHES_IN["7d"], SUM.searches),
    searches30d: sumOver(sums, STRETCHES_IN["30d"], SUM.searches),
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
  const [all, consoles] = await Promise.all(loadQueryAggregateHalves(db, date, options));
  const both = (period: Period) => [...(all?.[period] ?? []), ...(consoles?.[period] ?? [])];
  return { day: both("day"), "7d": both("7d"), "30d": both("30d") };
};

/**
 * The same in two halves that partition the scopes (the all-consoles scope; the console scopes),
 * asked at once on two connections: a rollup scores and writes the half that arrives first while
 * the other is still aggregating.
 */
export const loadQueryAggregateHalves = (
  db: pg.Pool,
  date: IsoDay,
  options: { copy: boolean },
): Promise<Record<Period, QueryAggregate[]>>[] =>
  (["all", "consoles"] as const).map((scopes) => loadScopeHalf(db, date, scopes, options));

const loadScopeHalf = async (
  db: pg.Pool,
  date: IsoDay,
  scopes: ScopeHalf,
  options: { copy: boolean },
): Promise<Record<Period, QueryAggregate[]>> => {
  const rows = await inRollupSession(db, (client) =>
    readRows(client, withDateLiteral(searchSql(scopes), date), options),
  );
  const result: Record<Period, QueryAggregate[]> = { day: [], "7d": [], "30d": [] };
  const sums: QuerySums = new Float64Array(SUM_COUNT * Object.keys(STRETCH).length);
  const flush = (scope: number, query: string) => {
    for (const period of PERIODS) {
      const aggregate = periodAggregate(scope, query, sums, period);
      if (aggregate) result[period].push(aggregate);
    }
    sums.fill(0);
  };
  // Rows of one (scope, query) are consecutive: gather its stretches, then emit its periods.
  let scope = -1;
  let query: string | null = null;
  for (const row of rows) {
    const rowScope = copyNumber(row[1]);
    const rowQuery = row[0] ?? "";
    if (rowScope !== scope || rowQuery !== query) {
      if (query !== null) flush(scope, query);
      scope = rowScope;
      query = rowQuery;
    }
    const block = copyNumber(row[2]) * SUM_COUNT;
    for (let field = 0; field < SUM_COUNT; field++)
      sums[block + field] = copyNumber(row[FIRST_SUM_COLUMN + field]);
  }
  if (query !== null) flush(scope, query);
  return result;
};
