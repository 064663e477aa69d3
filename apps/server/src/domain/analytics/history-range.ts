import { HISTORY_DEFAULT_DAYS, HISTORY_MAX_DAYS } from "@gmi/contract";
import { addDays, daysBetween, type IsoDay } from "./windows.js";

export type HistoryRange = { from: IsoDay; to: IsoDay };
export type HistoryRangeProblem = { field: "from" | "to"; message: string };

/**
 * The dates a history request covers: `to` defaults to the latest computed date, `from` to the
 * 30 days ending on `to`. A range wider than 90 days, or reversed, is refused (the contract refuses
 * it already when both ends are given; this covers an end filled in from the defaults).
 */
export const resolveHistoryRange = (
  requested: { from?: IsoDay | undefined; to?: IsoDay | undefined },
  latest: IsoDay,
): HistoryRange | HistoryRangeProblem => {
  // Checked first: a `from` past every computed date (up to 9999-12-31) would carry `to` past year 9999.
  if (requested.from && requested.from > latest)
    return { field: "from", message: `must not be after the latest computed date (${latest})` };
  const to =
    requested.to ??
    (requested.from ? minDay(addDays(requested.from, HISTORY_DEFAULT_DAYS - 1), latest) : latest);
  const from = requested.from ?? addDays(to, -(HISTORY_DEFAULT_DAYS - 1));
  const days = daysBetween(from, to) + 1;
  if (days < 1) return { field: "from", message: `must not be after to (${to})` };
  if (days > HISTORY_MAX_DAYS)
    return { field: "from", message: `range must span at most ${HISTORY_MAX_DAYS} days (to is ${to})` };
  return { from, to };
};

const minDay = (a: IsoDay, b: IsoDay): IsoDay => (a < b ? a : b);

export const isRangeProblem = (value: HistoryRange | HistoryRangeProblem): value is HistoryRangeProblem =>
  "field" in value;
