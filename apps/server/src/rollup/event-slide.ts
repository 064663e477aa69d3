import { PERIODS } from "@gmi/contract";
import type pg from "pg";
import type { Sql } from "../data/sql.js";
import { type KeyedNumbers, readKeyedNumbers, withDateLiteral } from "../db/copy/copy-out.js";
import type { IsoDay } from "../domain/analytics/windows.js";
import { type SlidableSnapshots, slidableSnapshots } from "./cell-versions.js";
import { returningTo } from "./event-cells.js";
import { type SumRow, sumColumn } from "./event-sums.js";

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

/** Cells a slide reads: of D, of the two leaving days, and those returning to one of them. */
const slideCells = () =>
  `day IN ($1::date, $1::date - 7, $1::date - 30) OR ${returningTo(7)} OR ${returningTo(30)}`;

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

/** D-1's window a base row belongs to, by the length that names it in the SQL above. */
const BLOCK_OF_WINDOW: Record<number, number> = { 7: 1, 30: 2 };

/**
 * The sums of rows keyed by (game, condition), each a block of `names.length` per period (in PERIODS
 * order): added to
 * in place as D-1's rows and the cells come, and made into sum rows at the end (~300k additions a
 * rollup, where a string key and a property name per addition showed in profiles).
 */
class SumTable {
  private readonly byCondition = new Map<string, Map<number, Float64Array>>();

  constructor(private readonly names: readonly string[]) {}

  sums(gameId: number, condition: string): Float64Array {
    let games = this.byCondition.get(condition);
    if (!games) {
      games = new Map();
      this.byCondition.set(condition, games);
    }
    let sums = games.get(gameId);
    if (!sums) {
      sums = new Float64Array(this.names.length * PERIODS.length);
      games.set(gameId, sums);
    }
    return sums;
  }

  add(gameId: number, condition: string, name: number, block: number, value: number) {
    const sums = this.sums(gameId, condition);
    sums[block * this.names.length + name] = (sums[block * this.names.length + name] as number) + value;
  }

  rows(): SumRow[] {
    const rows: SumRow[] = [];
    for (const [condition, games] of this.byCondition)
      for (const [gameId, sums] of games) {
        const row = { game_id: gameId, condition } as SumRow;
        PERIODS.forEach((period, block) => {
          this.names.forEach((name, i) => {
            row[sumColumn(name, period)] = sums[block * this.names.length + i] as number;
          });
        });
        rows.push(row);
      }
    return rows;
  }
}

/**
 * What a cell of day D+`offset` (offset <= 0) and gap `gap` adds to each period's sums (day, 7d,
 * 30d): its counts times `counts[period]`, its (key, user) pairs times `users[period]`. A cell of D
 * is in every window, its pairs new in a window when their previous day is before it; a leaving
 * day's cell is taken away; a cell returning to a leaving day keeps its pairs in the window.
 */
type CellEffect = { counts: readonly number[]; users: readonly number[] };

const cellEffect = (offset: number, gap: number): CellEffect => {
  const counts = [0, 0, 0];
  const users = [0, 0, 0];
  if (offset === 0) {
    counts.fill(1);
    users[0] = 1;
    users[1] = gap >= 7 ? 1 : 0;
    users[2] = gap >= 30 ? 1 : 0;
  }
  for (const [leaving, block] of [
    [7, 1],
    [30, 2],
  ] as const) {
    if (offset === -leaving) {
      counts[block] = -1;
      users[block] = -1;
    }
    if (offset < 0 && offset > -leaving && offset - gap === -leaving) users[block] = 1;
  }
  return { counts, users };
};

/** The effect of every (offset, gap) a slide reads (offsets 0..-30, gaps 1..31), computed once. */
const EFFECTS: readonly CellEffect[] = Array.from({ length: 31 * 32 }, (_, i) =>
  cellEffect(-Math.floor(i / 32), i % 32),
);
const effectOf = (offset: number, gap: number) => EFFECTS[-offset * 32 + gap] as CellEffect;

/**
 * The sums of a table: `u` first (a cell's pairs), then the counts in the order of the cell columns
 * after users (REDIRECT_CELLS_SQL, SEARCH_CELLS_SQL).
 */
const R = { users: 0, redirects: 1, loose: 2, cib: 3, new: 4 } as const;
const REDIRECT_SUMS = ["u", "r", "loose", "cib", "new"];
const S = { users: 0, searches: 1, mobile: 2 } as const;
const SEARCH_SUMS = ["u", "n", "mob"];

/** Where a condition row's redirects go in the redirect sums. */
const REDIRECT_SUM_OF: ReadonlyMap<string, number> = new Map([
  ["loose", R.loose],
  ["cib", R.cib],
  ["new", R.new],
]);

/**
 * Adds the cells (rows of: offset, gap, game id, users, then the counts) to `table`, each to the
 * sums `kept(condition)` lists.
 */
const addCells = (table: SumTable, cells: KeyedNumbers, kept: (condition: string) => readonly number[]) => {
  const { numbers, width } = cells;
  const sumCount = width - 3;
  for (let i = 0; i < cells.keys.length; i++) {
    const at = i * width;
    const condition = cells.keys[i] as string;
    const effect = effectOf(numbers[at] as number, numbers[at + 1] as number);
    const sums = table.sums(numbers[at + 2] as number, condition);
    const keptSums = kept(condition);
    for (let block = 0; block < PERIODS.length; block++) {
      for (const sum of keptSums) {
        const times = sum === 0 ? effect.users[block] : effect.counts[block];
        const slot = block * sumCount + sum;
        sums[slot] = (sums[slot] as number) + (times as number) * (numbers[at + 3 + sum] as number);
      }
    }
  }
};

const ALL_REDIRECT_SUMS = REDIRECT_SUMS.map((_, i) => i);
const ALL_SEARCH_SUMS = SEARCH_SUMS.map((_, i) => i);
const SEARCH_COUNT_ONLY = [S.searches];

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

  const redirects = new SumTable(REDIRECT_SUMS);
  const searches = new SumTable(SEARCH_SUMS);
  // D-1's windows. A game's searches without a condition: its total, less its conditions' below.
  for (let i = 0; i < liquidity.keys.length; i++) {
    const [window, gameId, redirectCount, users, searchCount] = liquidity.numbers.subarray(i * 5, i * 5 + 5);
    const block = BLOCK_OF_WINDOW[window as number] as number;
    redirects.add(gameId as number, "", R.redirects, block, redirectCount as number);
    redirects.add(gameId as number, "", R.users, block, users as number);
    searches.add(gameId as number, "", S.searches, block, searchCount as number);
  }
  for (let i = 0; i < conditions.keys.length; i++) {
    const condition = conditions.keys[i] as string;
    const [window, gameId, searchCount, users, mobile, redirectCount] = conditions.numbers.subarray(
      i * 6,
      i * 6 + 6,
    );
    const block = BLOCK_OF_WINDOW[window as number] as number;
    searches.add(gameId as number, condition, S.searches, block, searchCount as number);
    searches.add(gameId as number, condition, S.users, block, users as number);
    searches.add(gameId as number, condition, S.mobile, block, mobile as number);
    searches.add(gameId as number, "", S.searches, block, -(searchCount as number));
    const redirectName = REDIRECT_SUM_OF.get(condition);
    if (redirectName !== undefined)
      redirects.add(gameId as number, "", redirectName, block, redirectCount as number);
  }
  addCells(redirects, redirectCells, () => ALL_REDIRECT_SUMS);
  // A game's searches without a condition: only their count is kept (module comment).
  addCells(searches, searchCells, (condition) => (condition === "" ? SEARCH_COUNT_ONLY : ALL_SEARCH_SUMS));
  return { redirects: redirects.rows(), searches: searches.rows() };
};
