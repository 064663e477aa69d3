import type { DayWindow, IsoDay } from "./windows.js";

/** Consecutive days, both ends included. */
export type DayRun = { first: IsoDay; last: IsoDay };

/** At most this many runs are named in a message; older ones are counted instead. */
export const RUNS_NAMED = 5;

const describeRun = (run: DayRun) => (run.first === run.last ? run.first : `${run.first} to ${run.last}`);

/**
 * The computed dates in words, newest runs named: "2026-10-01 to 2026-10-09 and 2026-10-12 to
 * 2026-11-24". Each gap shows as a break between runs, so a date inside min..max that was never
 * rolled up is not implied to exist. Runs are oldest first, as `snapshotRuns` returns them.
 */
export const describeRuns = (runs: readonly DayRun[]): string => {
  if (runs.length === 0) return "none";
  const named = runs.slice(-RUNS_NAMED).map(describeRun);
  const older = runs.length - named.length;
  const list = named.length === 1 ? named[0] : `${named.slice(0, -1).join(", ")} and ${named.at(-1)}`;
  return older > 0 ? `${list} (and ${older} older ${older === 1 ? "run" : "runs"})` : (list as string);
};

/** Whether a day of the runs falls inside `window`. */
export const runsMeet = (runs: readonly DayRun[], window: DayWindow): boolean =>
  runs.some((run) => run.first <= window.end && run.last >= window.start);
