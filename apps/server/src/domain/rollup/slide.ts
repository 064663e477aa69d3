import { PERIOD_DAYS, PERIODS, type Period } from "@gmi/contract";

/**
 * The arithmetic of a rollup's windows over the daily event cells (schema.prisma, "Daily event
 * cells"), as plain data and functions: the SQL the rollup sends (rollup/*.ts) and the sums it adds
 * up in Node both derive from this, so the two cannot disagree, and every length comes from the
 * contract's PERIOD_DAYS.
 *
 * Days are offsets from the rollup's date D (0 = D, -1 = D-1, ...). A cell is (day, key, gap): the
 * (key, user) pairs active on `day` whose previous active day was `gap` days earlier. A pair counts
 * once in a window, by the cell of its first day in it: the one whose gap reaches back before the
 * window's first day.
 */

/** The longest window, in days (30): a cell's gap is only told apart up to this. */
export const LONGEST_WINDOW_DAYS = Math.max(...PERIODS.map((period) => PERIOD_DAYS[period]));

/** The gap of a pair with no active day in the LONGEST_WINDOW_DAYS before (stored as 31). */
export const NO_RECENT_GAP = LONGEST_WINDOW_DAYS + 1;

/** The periods shortest first, the order in which their windows nest (day, 7d, 30d). */
export const PERIODS_BY_LENGTH: readonly Period[] = [...PERIODS].sort(
  (a, b) => PERIOD_DAYS[a] - PERIOD_DAYS[b],
);

/** Periods longer than a day: those a rollup slides from the previous date's snapshots (7d, 30d). */
export type SlidPeriod = Exclude<Period, "day">;
export const SLID_PERIODS: readonly SlidPeriod[] = PERIODS.filter(
  (period): period is SlidPeriod => PERIOD_DAYS[period] > 1,
);

/** The offset of the first day of a period's window of D: 0, -6, -29. */
export const windowStart = (period: Period): number => 1 - PERIOD_DAYS[period];

/** The day that leaves a period's window when it slides from D-1 to D: D-1, D-7, D-30. */
export const leavingDay = (period: Period): number => -PERIOD_DAYS[period];

/** Whether a cell of day `offset` and gap `gap` holds pairs first active in the period's window. */
export const isFirstInWindow = (period: Period, offset: number, gap: number): boolean =>
  gap > offset - windowStart(period);

/**
 * The whole window read at once, split into stretches that the periods share: each period's
 * stretch is the days of its window not in a shorter period's (D; D-6..D-1; D-29..D-7). A period's
 * window is the stretches up to its own.
 */
export type Stretch = { period: Period; first: number; last: number };
export const STRETCHES: readonly Stretch[] = PERIODS_BY_LENGTH.map((period, i) => {
  const shorter = PERIODS_BY_LENGTH[i - 1];
  return { period, first: windowStart(period), last: shorter === undefined ? 0 : windowStart(shorter) - 1 };
});

/** The stretches a period's window covers, by index in STRETCHES. */
export const stretchesOf = (period: Period): number[] =>
  STRETCHES.flatMap((stretch, i) => (PERIOD_DAYS[stretch.period] <= PERIOD_DAYS[period] ? [i] : []));

/** The stretch (index in STRETCHES) a day of the window belongs to; -1 outside the longest window. */
export const stretchOf = (offset: number): number =>
  STRETCHES.findIndex((stretch) => offset >= stretch.first && offset <= stretch.last);

/**
 * What a slide reads for a period, besides the previous date's window (`previousWindow`, stored
 * snapshot rows): the cells of D (`today`), of the day leaving the window (`leavingDay`), and the
 * cells of the pairs last active on the leaving day and active again inside the window
 * (`returningToLeavingDay`: their first day in the window moves to that cell).
 */
export type SlidePart = "previousWindow" | "today" | "leavingDay" | "returningToLeavingDay";

/**
 * A term of a window of D: a part's counts (events, searches, ...) and distinct users, added (1),
 * taken away (-1) or left out (0). `firstInWindowOnly`: of the part's users, only the pairs first
 * active in the window count.
 */
export type WindowTerm = {
  part: SlidePart;
  counts: -1 | 0 | 1;
  users: -1 | 0 | 1;
  firstInWindowOnly: boolean;
};

const TODAY: WindowTerm = { part: "today", counts: 1, users: 1, firstInWindowOnly: true };

/**
 * A period's window of D, slid from D-1's: D-1's window, plus D (its pairs new in the window), less
 * the leaving day (its events and pairs), plus the pairs returning to the leaving day. A one-day
 * window is D alone: nothing of D-1's remains.
 */
export const slideTerms = (period: Period): readonly WindowTerm[] =>
  PERIOD_DAYS[period] === 1
    ? [TODAY]
    : [
        { part: "previousWindow", counts: 1, users: 1, firstInWindowOnly: false },
        TODAY,
        { part: "leavingDay", counts: -1, users: -1, firstInWindowOnly: false },
        { part: "returningToLeavingDay", counts: 0, users: 1, firstInWindowOnly: false },
      ];

/** The cells (offset, gap) of pairs returning to a period's leaving day: on day d, gap d - leaving. */
export const returningCells = (period: Period): { offset: number; gap: number }[] => {
  const leaving = leavingDay(period);
  return Array.from({ length: -leaving - 1 }, (_, i) => ({ offset: leaving + 1 + i, gap: i + 1 }));
};

/** Whether a cell (offset <= 0) is read by a part of a period's slide (never `previousWindow`). */
export const isInPart = (part: SlidePart, period: Period, offset: number, gap: number): boolean => {
  switch (part) {
    case "today":
      return offset === 0;
    case "leavingDay":
      return offset === leavingDay(period);
    case "returningToLeavingDay":
      return offset > leavingDay(period) && offset < 0 && offset - gap === leavingDay(period);
    case "previousWindow":
      return false;
  }
};

/** The days (offsets) whose cells a slide reads whole: D and each slid period's leaving day. */
export const SLIDE_DAYS: readonly number[] = [0, ...SLID_PERIODS.map(leavingDay)];

/** What a cell adds to a window's sums: its counts times `counts`, its pairs times `users`. */
export type CellEffect = { counts: number; users: number };

/** A cell's effect on a period's window of D when that window is slid (the sum of its terms). */
export const cellEffect = (period: Period, offset: number, gap: number): CellEffect => {
  let counts = 0;
  let users = 0;
  for (const term of slideTerms(period)) {
    if (!isInPart(term.part, period, offset, gap)) continue;
    counts += term.counts;
    if (!term.firstInWindowOnly || isFirstInWindow(period, offset, gap)) users += term.users;
  }
  return { counts, users };
};
