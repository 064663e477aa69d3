import type { Period } from "@gmi/contract";
import {
  LONGEST_WINDOW_DAYS,
  returningCells,
  SLID_PERIODS,
  SLIDE_DAYS,
  windowStart,
} from "../domain/rollup/slide.js";

/**
 * The windows of domain/rollup/slide.ts as SQL over a cell table's `day` and `gap`, for statements
 * whose $1 is the rollup's date D. Every day and length here derives from that module.
 */

/** A day of D's windows: `$1::date`, `$1::date - 7`. */
export const daySql = (offset: number): string => (offset === 0 ? "$1::date" : `$1::date - ${-offset}`);

/** The cells of the longest window (D-29..D): what a full read scans. */
export const LONGEST_WINDOW_SQL = `day BETWEEN ${daySql(1 - LONGEST_WINDOW_DAYS)} AND $1::date`;

/** Cells of a period's window, among those of the longest window. */
export const inWindowSql = (period: Period): string =>
  windowStart(period) === 1 - LONGEST_WINDOW_DAYS ? "TRUE" : `day >= ${daySql(windowStart(period))}`;

/** Cells of a period's window whose pairs are first active in it (slide.ts, isFirstInWindow). */
export const firstInWindowSql = (period: Period): string =>
  `${inWindowSql(period)} AND gap > day - (${daySql(windowStart(period))})`;

/** The cells of pairs returning to a period's leaving day (slide.ts, returningCells). */
export const returningSql = (period: Period): string =>
  returningCells(period)
    .map(({ offset, gap }) => `(day = ${daySql(offset)} AND gap = ${gap})`)
    .join(" OR ");

/** Every cell a slide reads: of D, of the leaving days, and those returning to one of them. */
export const SLIDE_CELLS_SQL = [
  `day IN (${SLIDE_DAYS.map(daySql).join(", ")})`,
  ...SLID_PERIODS.map(returningSql),
].join(" OR ");
