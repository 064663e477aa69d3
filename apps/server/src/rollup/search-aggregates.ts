import type { Period } from "@gmi/contract";
import { PERIODS } from "@gmi/contract";
import type pg from "pg";
import { readKeyedNumbers, withDateLiteral } from "../db/copy/copy-out.js";
import type { QueryAggregate } from "../domain/analytics/search-rows.js";
import type { IsoDay } from "../domain/analytics/windows.js";
import {
  isFirstInWindow,
  leavingDay,
  SLID_PERIODS,
  type SlidePart,
  type SlidPeriod,
  STRETCHES,
  slideTerms,
  stretchesOf,
} from "../domain/rollup/slide.js";
import { inRollupSession, readByKeysOnly } from "./analytics-aggregates.js";
import {
  cellsVersion as readCellsVersion,
  type SlidableSnapshots,
  slidableSnapshots,
} from "./cell-versions.js";
import { daySql, firstInWindowSql, LONGEST_WINDOW_SQL, returningSql } from "./window-sql.js";

/**
 * The search aggregate of a rollup of date D: per (scope, query), the sums of each period's window.
 * Read in one of two ways, chosen per half in the transaction that reads the cells:
 * - in full, from the search cells of the whole window D-29..D (the gap rule for distinct users:
 *   analytics-aggregates.ts), asked per stretch: `day` D itself, `week` D-6..D-1 and `month`
 *   D-29..D-7; a period adds up the stretches it covers;
 * - slid by a day, when the 7d and 30d snapshots of D-1 still describe the cells (cell-versions.ts):
 *   each of D-1's windows gains the cells of D and loses those of the day leaving it (D-7, D-30).
 *   Its distinct users gain the pairs of D first in the new window (gap above 6 or 29), lose the
 *   pairs of the leaving day, and win back those of them active again inside the window: the cells
 *   whose gap points back exactly to the leaving day. At 10M events that reads ~80k cells and
 *   ~150k snapshot rows instead of ~800k cells.
 * Both read rows of the same shape: (query, scope, block, sums), where a block is a stretch or a
 * part of the slide, and the periods are sums of blocks (FULL_TERMS, SLIDE_TERMS), both derived
 * from domain/rollup/slide.ts.
 */

/**
 * Where a block row's fields are, after its query (the key): scope, block, then its sums (CELL_SUMS):
 * the plain sums, the users, and per period whose D cells are not all first in it (7d, 30d) the
 * users first in that window.
 */
const COLUMN = { scope: 0, block: 1, firstSum: 2 } as const;
const SUM = { searches: 0, pricing: 1, mobile: 2, resultSum: 3, zeroResults: 4, users: 5 } as const;

/** Periods whose users of D's cells need the first-in-window filter (a one-day window's never do). */
const FILTERED_PERIODS = PERIODS.filter((period) => !isFirstInWindow(period, 0, 1));
const SUM_COUNT = SUM.users + 1 + FILTERED_PERIODS.length;

/** The sum holding the users of a block that are first in a period's window. */
const usersFirstIn = (period: Period): number =>
  FILTERED_PERIODS.includes(period) ? SUM.users + 1 + FILTERED_PERIODS.indexOf(period) : SUM.users;

/** The sums of a block row, after query, scope and block, in SUM's order. */
const CELL_SUMS = [
  "SUM(searches), SUM(pricing), SUM(mobile), SUM(result_sum::float8), SUM(zero_results), SUM(users)",
  ...FILTERED_PERIODS.map((period) => `SUM(users) FILTER (WHERE ${firstInWindowSql(period)})`),
].join(", ");

/** A block row's users alone, in CELL_SUMS's shape (its other sums zero). */
const usersOnly = (users: string) =>
  `0, 0, 0, 0::float8, 0, ${users}${", 0".repeat(FILTERED_PERIODS.length)}`;

/** The blocks of a full read: the stretches of the longest window (slide.ts, STRETCHES). */
const stretchBlockSql = `CASE ${STRETCHES.slice(0, -1)
  .map((stretch, block) => `WHEN day >= ${daySql(stretch.first)} THEN ${block}`)
  .join(" ")} ELSE ${STRETCHES.length - 1} END`;

/**
 * The blocks of a slide: the cells of D (block 0, the rows of a full read's first stretch), then
 * per slid period the other parts of its terms (slide.ts, slideTerms).
 */
const SLID_PARTS: readonly SlidePart[] = ["leavingDay", "returningToLeavingDay", "previousWindow"];
const slideBlock = (part: SlidePart, period: Period): number =>
  part === "today"
    ? 0
    : 1 + SLID_PERIODS.indexOf(period as SlidPeriod) * SLID_PARTS.length + SLID_PARTS.indexOf(part);
const BLOCK_COUNT = Math.max(STRETCHES.length, 1 + SLID_PERIODS.length * SLID_PARTS.length);

/** The search aggregate's two halves: the all-consoles scope, and every console scope. */
type ScopeHalf = "all" | "consoles";

const inHalf = (scopes: ScopeHalf) => `scope_console_id ${scopes === "all" ? "= 0" : "<> 0"}`;

/**
 * One row per (scope, query, stretch): the cells already hold each search in scope 0 and in its
 * console scope. Ordered by scope, then query in byte order (code-unit order but for astral
 * characters: the scoring's sort by query is then nearly linear, search-rows.ts). Asked in two
 * halves, the all-consoles scope and the console scopes, on two connections at once: it is the
 * largest aggregate of a rollup, and one query runs on one core. `result_sum` is a bigint, whose
 * SUM is a numeric (arbitrary precision, ~10% of the query's time): summed as float8 instead, exact
 * up to 2^53.
 */
const fullSql = (scopes: ScopeHalf) => `
SELECT query, scope_console_id, ${stretchBlockSql} AS block,
  ${CELL_SUMS}
FROM search_day_cells WHERE ${LONGEST_WINDOW_SQL} AND ${inHalf(scopes)}
GROUP BY scope_console_id, query, block
ORDER BY scope_console_id, query COLLATE "C", block`;

/**
 * One row per (scope, query, block of the slide): the cells of D (with the users first in each
 * window, as in the full read), of the leaving days, of the pairs returning to them, and D-1's
 * rows as they were stored. Ordered as the full read.
 */
const slideSql = (scopes: ScopeHalf, before: SlidableSnapshots) => `
SELECT * FROM (
  SELECT query, scope_console_id, block, ${CELL_SUMS}
  FROM (
    SELECT query, scope_console_id, ${slideBlock("today", "day")} AS block, day, gap, searches, pricing, mobile, result_sum, zero_results, users
    FROM search_day_cells WHERE day = $1::date AND ${inHalf(scopes)}
    UNION ALL
    SELECT query, scope_console_id,
      CASE ${SLID_PERIODS.map((period) => `WHEN day = ${daySql(leavingDay(period))} THEN ${slideBlock("leavingDay", period)}`).join(" ")} END,
      -- A day outside the window: no pair of it is first in either window.
      NULL, gap, searches, pricing, mobile, result_sum, zero_results, users
    FROM search_day_cells
    WHERE day IN (${SLID_PERIODS.map((period) => daySql(leavingDay(period))).join(", ")}) AND ${inHalf(scopes)}
  ) cells
  GROUP BY scope_console_id, query, block
  ${SLID_PERIODS.map(
    (period) => `UNION ALL
  SELECT query, scope_console_id, ${slideBlock("returningToLeavingDay", period)}, ${usersOnly("users")}
  FROM search_day_cells WHERE (${returningSql(period)}) AND ${inHalf(scopes)}`,
  ).join("\n  ")}
  UNION ALL
  SELECT query, scope_console_id,
    CASE snapshot_id ${SLID_PERIODS.map((period) => `WHEN ${before[period]} THEN ${slideBlock("previousWindow", period)}`).join(" ")} END,
    search_count, pricing_count, mobile_count, result_count_sum, zero_result_count, distinct_users${", 0".repeat(FILTERED_PERIODS.length)}
  FROM search_snapshot_rows
  WHERE snapshot_id IN (${SLID_PERIODS.map((period) => before[period]).join(", ")}) AND ${inHalf(scopes)}
) blocks
ORDER BY scope_console_id, query COLLATE "C", block`;

/**
 * A (scope, query)'s sums: SUM_COUNT per block (a missing block is zeros). Plain numbers in one
 * reused array: ~300k rows pass through here on the rollup's single Node thread, where an object per
 * block and a closure per sum showed in profiles.
 */
type QuerySums = Float64Array;

/**
 * A period's window as a sum of blocks: each term adds (1), takes away (-1) or leaves out (0) a
 * block's counts and, separately, its distinct users, counted by the users sum named. A block that
 * is not there adds nothing.
 */
type Term = readonly [block: number, countSign: number, userSign: number, users: number];
type Terms = Record<Period, readonly Term[]>;

const byPeriod = (terms: (period: Period) => readonly Term[]): Terms => ({
  day: terms("day"),
  "7d": terms("7d"),
  "30d": terms("30d"),
});

/** The full read: each period covers the stretches up to its own, counting users first in it. */
const FULL_TERMS: Terms = byPeriod((period) =>
  stretchesOf(period).map((block) => [block, 1, 1, usersFirstIn(period)] as const),
);

/** The slide: the period's terms (slide.ts, slideTerms), each on its block. */
const SLIDE_TERMS: Terms = byPeriod((period) =>
  slideTerms(period).map(
    (term) =>
      [
        slideBlock(term.part, period),
        term.counts,
        term.users,
        term.firstInWindowOnly ? usersFirstIn(period) : SUM.users,
      ] as const,
  ),
);

/** A field summed over a period's terms; `SUM.users` stands for each term's users sum. */
const sumOver = (sums: QuerySums, terms: readonly Term[], field: number) => {
  let total = 0;
  if (field === SUM.users)
    for (const [block, , userSign, users] of terms)
      total += userSign * (sums[block * SUM_COUNT + users] as number);
  else
    for (const [block, countSign] of terms) total += countSign * (sums[block * SUM_COUNT + field] as number);
  return total;
};

/** One (scope, query)'s period aggregate from its block sums; null when it had no search then. */
const periodAggregate = (
  scopeConsoleId: number,
  query: string,
  sums: QuerySums,
  terms: Terms,
  period: Period,
): QueryAggregate | null => {
  const searchCount = sumOver(sums, terms[period], SUM.searches);
  if (searchCount === 0) return null;
  const pricingCount = sumOver(sums, terms[period], SUM.pricing);
  return {
    scopeConsoleId,
    query,
    searchCount,
    pricingCount,
    siteSearchCount: searchCount - pricingCount,
    distinctUsers: sumOver(sums, terms[period], SUM.users),
    mobileCount: sumOver(sums, terms[period], SUM.mobile),
    resultCountSum: sumOver(sums, terms[period], SUM.resultSum),
    zeroResultCount: sumOver(sums, terms[period], SUM.zeroResults),
    searches7d: sumOver(sums, terms["7d"], SUM.searches),
    searches30d: sumOver(sums, terms["30d"], SUM.searches),
  };
};

/** A half of the search aggregate, with the cells version it was read at and how it was read. */
export type SearchAggregateHalf = {
  periods: Record<Period, QueryAggregate[]>;
  cellsVersion: number;
  slid: boolean;
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
  const both = (period: Period) => [...(all?.periods[period] ?? []), ...(consoles?.periods[period] ?? [])];
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
): Promise<SearchAggregateHalf>[] =>
  (["all", "consoles"] as const).map((scopes) => loadScopeHalf(db, date, scopes, options));

const loadScopeHalf = async (
  db: pg.Pool,
  date: IsoDay,
  scopes: ScopeHalf,
  options: { copy: boolean },
): Promise<SearchAggregateHalf> => {
  // The version, the choice and the cells come from one transaction's view (a repeatable read).
  const { rows, cellsVersion, before } = await inRollupSession(db, async (client) => {
    const cellsVersion = await readCellsVersion(client);
    const before = await slidableSnapshots(client, date, ["search"]);
    if (before) await readByKeysOnly(client);
    const sql = before ? slideSql(scopes, before) : fullSql(scopes);
    return {
      rows: await readKeyedNumbers(client, withDateLiteral(sql, date), options),
      cellsVersion,
      before,
    };
  });
  const terms = before ? SLIDE_TERMS : FULL_TERMS;
  const periods: Record<Period, QueryAggregate[]> = { day: [], "7d": [], "30d": [] };
  const sums: QuerySums = new Float64Array(SUM_COUNT * BLOCK_COUNT);
  const flush = (scope: number, query: string) => {
    for (const period of PERIODS) {
      const aggregate = periodAggregate(scope, query, sums, terms, period);
      if (aggregate) periods[period].push(aggregate);
    }
    sums.fill(0);
  };
  // Rows of one (scope, query) are consecutive: gather its blocks (a block may come in several
  // rows: returning pairs, one row a day), then emit its periods.
  const { keys, numbers, width } = rows;
  let scope = -1;
  let query: string | null = null;
  for (let row = 0; row < keys.length; row++) {
    const at = row * width;
    const rowScope = numbers[at + COLUMN.scope] as number;
    const rowQuery = keys[row] as string;
    if (rowScope !== scope || rowQuery !== query) {
      if (query !== null) flush(scope, query);
      scope = rowScope;
      query = rowQuery;
    }
    const block = (numbers[at + COLUMN.block] as number) * SUM_COUNT;
    for (let field = 0; field < SUM_COUNT; field++)
      sums[block + field] =
        (sums[block + field] as number) + (numbers[at + COLUMN.firstSum + field] as number);
  }
  if (query !== null) flush(scope, query);
  return { periods, cellsVersion, slid: before !== null };
};
