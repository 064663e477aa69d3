import type { Period } from "@gmi/contract";
import type pg from "pg";
import type { IsoDay } from "../domain/analytics/windows.js";
import { type SlidableSnapshots, slidableSnapshots } from "./cell-versions.js";
import { readKeyedNumbers, withDateLiteral } from "./copy-out.js";
import { type SumRow, sumColumn } from "./event-sums.js";
import type { Sql } from "./sql.js";

/**
 * The redirect and search-condition sums of a rollup of D (event-sums.ts), slid by a day from the
 * 7d and 30d snapshots of D-1, as the search aggregate is (search-aggregates.ts): each window gains
 * the cells of D and loses those of the day leaving it (D-7, D-30); its distinct users gain the
 * pairs of D first in the window (gap above 6 or 29), lose the pairs of the leaving day, and win
 * back those active again inside the window (the cells whose gap points back exactly to it). The
 * day's sums are the cells of D. Alerts are not slid: their aggregate is small, and an alert whose
 * condition is `any` counts in its game's total but in no condition row, so D-1's rows do not tell
 * it apart.
 *
 * D-1's rows keep every sum this needs (condition rows: per game and condition; liquidity rows:
 * each enabled game's redirects, redirect users and searches), but for the searches without a
 * condition, which only count in a game's total: its total less its conditions' searches. Only
 * their count is slid; their users and mobile searches, never read, are left out.
 */

/** The listing conditions whose redirects a game's sums count, each under its own name. */
const REDIRECT_CONDITIONS: ReadonlySet<string> = new Set(["loose", "cib", "new"]);

/** Cells a slide reads: of D, of the two leaving days, and of each day returning to one of them. */
const slideCells = () => {
  const returning = (leaving: number) =>
    Array.from({ length: leaving - 1 }, (_, i) => `(day = $1::date - ${leaving - i - 1} AND gap = ${i + 1})`);
  return ["day IN ($1::date, $1::date - 7, $1::date - 30)", ...returning(7), ...returning(30)].join(" OR ");
};

const REDIRECT_CELLS_SQL = `
SELECT '', day - $1::date, gap, game_id, users, redirects, loose, cib, sealed
FROM redirect_day_cells WHERE ${slideCells()}`;

const SEARCH_CELLS_SQL = `
SELECT condition, day - $1::date, gap, game_id, users, searches, mobile
FROM search_condition_day_cells WHERE ${slideCells()}`;

const periodOf = (before: SlidableSnapshots) => `CASE snapshot_id WHEN ${before["7d"]} THEN 7 ELSE 30 END`;

const LIQUIDITY_BEFORE_SQL = (before: SlidableSnapshots) => `
SELECT '', ${periodOf(before)}, game_id, redirects, distinct_users, search_count
FROM liquidity_snapshot_rows
WHERE snapshot_id IN (${before["7d"]}, ${before["30d"]}) AND scope_console_id = 0`;

const CONDITIONS_BEFORE_SQL = (before: SlidableSnapshots) => `
SELECT condition, ${periodOf(before)}, game_id, search_count, distinct_users, mobile_count, redirects
FROM condition_snapshot_rows WHERE snapshot_id IN (${before["7d"]}, ${before["30d"]})`;

/**
 * D-1's snapshots the game and condition sums of D can slide from: they still describe the
 * redirect and search cells of their windows (cell-versions.ts), and every game enabled now has
 * its liquidity row in them (a game enabled since has no redirect users or total searches there).
 */
export const slidableEventSnapshots = async (sql: Sql, date: IsoDay): Promise<SlidableSnapshots | null> => {
  const before = await slidableSnapshots(sql, date, ["redirect", "search"]);
  if (!before) return null;
  const { rows } = await sql.query<{ missing: boolean }>(
    `SELECT EXISTS (
       SELECT 1 FROM games g CROSS JOIN unnest($1::int[]) AS s(id)
       WHERE g.enabled AND NOT EXISTS (
         SELECT 1 FROM liquidity_snapshot_rows r
         WHERE r.snapshot_id = s.id AND r.scope_console_id = 0 AND r.game_id = g.id)) AS missing`,
    [[before["7d"], before["30d"]]],
  );
  return rows[0]?.missing ? null : before;
};

/** The windows a slid sum is kept for, by the length that names them in the SQL above. */
const WINDOW_OF: Record<number, Period> = { 7: "7d", 30: "30d" };

/** Sum rows by (game, condition), each sum added to as the cells and D-1's rows come. */
class SumRows {
  private readonly rows = new Map<string, SumRow>();

  add(gameId: number, condition: string, name: string, period: Period, value: number) {
    const key = `${gameId}\t${condition}`;
    let row = this.rows.get(key);
    if (!row) {
      row = { game_id: gameId, condition } as SumRow;
      this.rows.set(key, row);
    }
    const column = sumColumn(name, period);
    row[column] = (row[column] ?? 0) + value;
  }

  list(): SumRow[] {
    return [...this.rows.values()];
  }
}

/**
 * Adds a cell of day D+`offset` to the sums it changes: `counts` are its plain sums by name, and
 * `users` its (key, user) pairs, counted under `u` (none when null).
 */
const slideCell = (
  add: (name: string, period: Period, value: number) => void,
  offset: number,
  gap: number,
  counts: ReadonlyArray<readonly [string, number]>,
  users: number | null,
) => {
  const addCounts = (period: Period, sign: number) => {
    for (const [name, value] of counts) add(name, period, sign * value);
  };
  const addUsers = (period: Period, value: number) => {
    if (users !== null) add("u", period, value);
  };
  if (offset === 0) {
    addCounts("day", 1);
    addCounts("7d", 1);
    addCounts("30d", 1);
    addUsers("day", users ?? 0);
    if (gap >= 7) addUsers("7d", users ?? 0);
    if (gap >= 30) addUsers("30d", users ?? 0);
  }
  for (const [leaving, period] of [
    [7, "7d"],
    [30, "30d"],
  ] as const) {
    if (offset === -leaving) {
      addCounts(period, -1);
      addUsers(period, -(users ?? 0));
    }
    // Active again inside the window after the leaving day: still counted.
    if (offset < 0 && offset > -leaving && offset - gap === -leaving) addUsers(period, users ?? 0);
  }
};

/** The redirect sums per game and the search sums per (game, condition) of D, slid from `before`. */
export const slideEventSums = async (
  client: pg.PoolClient,
  date: IsoDay,
  before: SlidableSnapshots,
  options: { copy: boolean },
): Promise<{ redirects: SumRow[]; searches: SumRow[] }> => {
  const read = (sql: string) => readKeyedNumbers(client, withDateLiteral(sql, date), options);
  const liquidity = await read(LIQUIDITY_BEFORE_SQL(before));
  const conditions = await read(CONDITIONS_BEFORE_SQL(before));
  const redirectCells = await read(REDIRECT_CELLS_SQL);
  const searchCells = await read(SEARCH_CELLS_SQL);

  const redirects = new SumRows();
  const searches = new SumRows();
  // D-1's windows. A game's searches without a condition: its total, less its conditions' below.
  for (let i = 0; i < liquidity.keys.length; i++) {
    const [window, gameId, redirectCount, users, searchCount] = liquidity.numbers.subarray(i * 5, i * 5 + 5);
    const period = WINDOW_OF[window as number] as Period;
    redirects.add(gameId as number, "", "r", period, redirectCount as number);
    redirects.add(gameId as number, "", "u", period, users as number);
    searches.add(gameId as number, "", "n", period, searchCount as number);
  }
  for (let i = 0; i < conditions.keys.length; i++) {
    const condition = conditions.keys[i] as string;
    const [window, gameId, searchCount, users, mobile, redirectCount] = conditions.numbers.subarray(
      i * 6,
      i * 6 + 6,
    );
    const period = WINDOW_OF[window as number] as Period;
    searches.add(gameId as number, condition, "n", period, searchCount as number);
    searches.add(gameId as number, condition, "u", period, users as number);
    searches.add(gameId as number, condition, "mob", period, mobile as number);
    searches.add(gameId as number, "", "n", period, -(searchCount as number));
    if (REDIRECT_CONDITIONS.has(condition))
      redirects.add(gameId as number, "", condition, period, redirectCount as number);
  }
  // The cells.
  for (let i = 0; i < redirectCells.keys.length; i++) {
    const [offset, gap, gameId, users, redirectCount, loose, cib, sealed] = redirectCells.numbers.subarray(
      i * 8,
      i * 8 + 8,
    );
    slideCell(
      (name, period, value) => redirects.add(gameId as number, "", name, period, value),
      offset as number,
      gap as number,
      [
        ["r", redirectCount as number],
        ["loose", loose as number],
        ["cib", cib as number],
        ["new", sealed as number],
      ],
      users as number,
    );
  }
  for (let i = 0; i < searchCells.keys.length; i++) {
    const condition = searchCells.keys[i] as string;
    const [offset, gap, gameId, users, searchCount, mobile] = searchCells.numbers.subarray(i * 6, i * 6 + 6);
    const withoutCondition = condition === "";
    slideCell(
      (name, period, value) => searches.add(gameId as number, condition, name, period, value),
      offset as number,
      gap as number,
      withoutCondition
        ? [["n", searchCount as number]]
        : [
            ["n", searchCount as number],
            ["mob", mobile as number],
          ],
      withoutCondition ? null : (users as number),
    );
  }
  return { redirects: redirects.list(), searches: searches.list() };
};
