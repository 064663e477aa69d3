/**
 * The dates of `GET /intelligence/{id}/history`, stated once: the query's refinement (history.ts),
 * the server's read and the SDK's mock all resolve a request's range here.
 */

/** Longest range one history request may span (both ends included); docs/decisions.md. */
export const HISTORY_MAX_DAYS = 90;
/** Days answered when the request names no `from` (ending on `to`, or on the latest computed date). */
export const HISTORY_DEFAULT_DAYS = 30;

/** A history request's dates (UTC, `YYYY-MM-DD`), both ends included. */
export type HistoryRange = { from: string; to: string };
/** Why a history request's dates are refused: the 422 names `from`, with this message. */
export type HistoryRangeProblem = { field: "from"; message: string };

const DAY_MS = 86_400_000;
const dayNumber = (day: string) => Date.parse(`${day}T00:00:00Z`) / DAY_MS;
const addDays = (day: string, days: number) =>
  new Date((dayNumber(day) + days) * DAY_MS).toISOString().slice(0, 10);

/** What is wrong with a range whose two ends are known: reversed, or wider than HISTORY_MAX_DAYS. */
export const historySpanProblem = (from: string, to: string): string | null => {
  const days = dayNumber(to) - dayNumber(from) + 1;
  if (days < 1) return `must not be after to (${to})`;
  if (days > HISTORY_MAX_DAYS) return `range must span at most ${HISTORY_MAX_DAYS} days (to is ${to})`;
  return null;
};

/**
 * The dates a history request covers, `latest` being the latest computed date: `to` defaults to
 * `latest`, or to HISTORY_DEFAULT_DAYS from a given `from` when that ends earlier; `from` defaults to
 * the HISTORY_DEFAULT_DAYS ending on `to`. Refused: a `from` after `latest`, a reversed range, one
 * wider than HISTORY_MAX_DAYS (the query's refinement refuses the last two already when both ends
 * are given; this covers an end filled in from the defaults).
 */
export const resolveHistoryRange = (
  requested: { from?: string | undefined; to?: string | undefined },
  latest: string,
): HistoryRange | HistoryRangeProblem => {
  // Checked first: a `from` past every computed date (up to 9999-12-31) would carry `to` past year 9999.
  if (requested.from && requested.from > latest)
    return { field: "from", message: `must not be after the latest computed date (${latest})` };
  const to =
    requested.to ??
    (requested.from ? minDay(addDays(requested.from, HISTORY_DEFAULT_DAYS - 1), latest) : latest);
  const from = requested.from ?? addDays(to, -(HISTORY_DEFAULT_DAYS - 1));
  const problem = historySpanProblem(from, to);
  return problem === null ? { from, to } : { field: "from", message: problem };
};

const minDay = (a: string, b: string) => (a < b ? a : b);

export const isHistoryRangeProblem = (
  value: HistoryRange | HistoryRangeProblem,
): value is HistoryRangeProblem => "field" in value;
