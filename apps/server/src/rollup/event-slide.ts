import { PERIODS, type Period } from "@gmi/contract";
import type pg from "pg";
import type { Sql } from "../data/sql.js";
import { type KeyedNumbers, readKeyedNumbers, withDateLiteral } from "../db/copy/copy-out.js";
import type { IsoDay } from "../domain/analytics/windows.js";
import { cellEffect, LONGEST_WINDOW_DAYS, NO_RECENT_GAP, SLID_PERIODS } from "../domain/rollup/slide.js";
import { type SlidableSnapshots, slidableSnapshots } from "./cell-versions.js";
import {
  REDIRECT_SUM_OF_CONDITION,
  REDIRECT_SUMS,
  SEARCH_SUMS,
  type SumRow,
  sumColumn,
} from "./event-sums.js";
import { SLIDE_CELLS_SQL } from "./window-sql.js";

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

const REDIRECT_CELLS_SQL = `
SELECT '', day - $1::date, gap, game_id, ${REDIRECT_SUMS.join(", ")}
FROM redirect_day_cells WHERE ${SLIDE_CELLS_SQL}`;

const SEARCH_CELLS_SQL = `
SELECT condition, day - $1::date, gap, game_id, ${SEARCH_SUMS.join(", ")}
FROM search_condition_day_cells WHERE ${SLIDE_CELLS_SQL}`;

/** A period's place in a row of sums (SumTable): its index in PERIODS. */
const blockOf = (period: Period) => PERIODS.indexOf(period);

/** The block of D-1's window a stored row belongs to, by its snapshot's id. */
const blockOfSnapshot = (before: SlidableSnapshots) =>
  `CASE snapshot_id ${SLID_PERIODS.map((period) => `WHEN ${before[period]} THEN ${blockOf(period)}`).join(" ")} END`;

const snapshotIds = (before: SlidableSnapshots) => SLID_PERIODS.map((period) => before[period]).join(", ");

const LIQUIDITY_BEFORE_SQL = (before: SlidableSnapshots) => `
SELECT '', ${blockOfSnapshot(before)}, game_id, redirects, distinct_users, search_count
FROM liquidity_snapshot_rows
WHERE snapshot_id IN (${snapshotIds(before)}) AND scope_console_id = 0`;

const CONDITIONS_BEFORE_SQL = (before: SlidableSnapshots) => `
SELECT condition, ${blockOfSnapshot(before)}, game_id, search_count, distinct_users, mobile_count, redirects
FROM condition_snapshot_rows WHERE snapshot_id IN (${snapshotIds(before)})`;

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
    [SLID_PERIODS.map((period) => before[period])],
  );
  return rows[0]?.missing ? null : before;
};

/**
 * The sums of rows keyed by (game, condition), each a block of `names.length` per period (in PERIODS
 * order): added to in place as D-1's rows and the cells come, and made into sum rows at the end (~300k additions a
 * rollup, where a string key and a property name per addition showed in profiles).
 */
class SumTable {
  private readonly byCondition = new Map<string, Map<number, Float64Array>>();

  constructor(readonly names: readonly string[]) {}

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
 * What a cell of day D+`offset` and gap `gap` adds to each period's sums, by period in PERIODS
 * order (domain/rollup/slide.ts, cellEffect), for every (offset, gap) a slide reads (offsets 0 back
 * to the longest window's leaving day, gaps up to NO_RECENT_GAP), computed once.
 */
type CellEffects = { counts: readonly number[]; users: readonly number[] };
const GAPS = NO_RECENT_GAP + 1;
const EFFECTS: readonly CellEffects[] = Array.from({ length: (LONGEST_WINDOW_DAYS + 1) * GAPS }, (_, i) => {
  const effects = PERIODS.map((period) => cellEffect(period, -Math.floor(i / GAPS), i % GAPS));
  return { counts: effects.map((effect) => effect.counts), users: effects.map((effect) => effect.users) };
});
const effectsOf = (offset: number, gap: number) => EFFECTS[-offset * GAPS + gap] as CellEffects;

/** Each sum's index in a table's row of sums. */
const indexOfSums = <S extends string>(sums: readonly S[]) =>
  Object.fromEntries(sums.map((sum, i) => [sum, i])) as Record<S, number>;
const REDIRECT = indexOfSums(REDIRECT_SUMS);
const SEARCH = indexOfSums(SEARCH_SUMS);

/**
 * Adds the cells (rows of: offset, gap, game id, then the table's sums in order) to `table`, each to
 * the sums `kept(condition)` lists: its pairs times the users effect, its counts times the counts'.
 */
const addCells = (table: SumTable, cells: KeyedNumbers, kept: (condition: string) => readonly number[]) => {
  const { numbers, width } = cells;
  const sumCount = width - 3;
  const usersAt = table.names.indexOf("users");
  for (let i = 0; i < cells.keys.length; i++) {
    const at = i * width;
    const condition = cells.keys[i] as string;
    const effect = effectsOf(numbers[at] as number, numbers[at + 1] as number);
    const sums = table.sums(numbers[at + 2] as number, condition);
    const keptSums = kept(condition);
    for (let block = 0; block < PERIODS.length; block++) {
      for (const sum of keptSums) {
        const times = sum === usersAt ? effect.users[block] : effect.counts[block];
        const slot = block * sumCount + sum;
        sums[slot] = (sums[slot] as number) + (times as number) * (numbers[at + 3 + sum] as number);
      }
    }
  }
};

const ALL_REDIRECT_SUMS = REDIRECT_SUMS.map((_, i) => i);
const ALL_SEARCH_SUMS = SEARCH_SUMS.map((_, i) => i);
const SEARCH_COUNT_ONLY = [SEARCH.searches];

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
    const [block, gameId, redirectCount, users, searchCount] = liquidity.numbers.subarray(i * 5, i * 5 + 5);
    redirects.add(gameId as number, "", REDIRECT.redirects, block as number, redirectCount as number);
    redirects.add(gameId as number, "", REDIRECT.users, block as number, users as number);
    searches.add(gameId as number, "", SEARCH.searches, block as number, searchCount as number);
  }
  for (let i = 0; i < conditions.keys.length; i++) {
    const condition = conditions.keys[i] as string;
    const [block, gameId, searchCount, users, mobile, redirectCount] = conditions.numbers.subarray(
      i * 6,
      i * 6 + 6,
    );
    const game = gameId as number;
    const at = block as number;
    searches.add(game, condition, SEARCH.searches, at, searchCount as number);
    searches.add(game, condition, SEARCH.users, at, users as number);
    searches.add(game, condition, SEARCH.mobile, at, mobile as number);
    searches.add(game, "", SEARCH.searches, at, -(searchCount as number));
    const redirectSum = REDIRECT_SUM_OF_CONDITION[condition as keyof typeof REDIRECT_SUM_OF_CONDITION];
    if (redirectSum !== undefined)
      redirects.add(game, "", REDIRECT[redirectSum], at, redirectCount as number);
  }
  addCells(redirects, redirectCells, () => ALL_REDIRECT_SUMS);
  // A game's searches without a condition: only their count is kept (module comment).
  addCells(searches, searchCells, (condition) => (condition === "" ? SEARCH_COUNT_ONLY : ALL_SEARCH_SUMS));
  return { redirects: redirects.rows(), searches: searches.rows() };
};
