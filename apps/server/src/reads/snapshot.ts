import type { Period } from "@gmi/contract";
import type { Clock } from "../clock.js";
import { findSnapshot, type SnapshotAsked, type SnapshotRef, snapshotRuns } from "../data/snapshots.js";
import type { Sql } from "../data/sql.js";
import { describeRuns } from "../domain/analytics/day-runs.js";
import { todayOf } from "../domain/analytics/windows.js";
import { ApiError } from "../errors.js";
import type { ReadDeps } from "./deps.js";

/** The newest runs of computed dates a 422 lists in `details.available_dates`. */
const AVAILABLE_RUNS_LISTED = 100;

/** No snapshot of the period at all: a 503, retryable once the rollup has run (docs/decisions.md). */
export const notComputedYet = () =>
  new ApiError(
    "service_unavailable",
    "analytics have not been computed yet (the operator runs `gmi rollup`)",
  );

/**
 * The snapshot a request reads: the requested date's, else the latest computed for the period that
 * is not in the future and whose day had events (data/snapshots.ts). A date without a snapshot (or
 * after today) is a 422 naming `date` with the dates really available, gaps shown; no default
 * snapshot at all (nothing rolled up yet, or only days without events) is a 503, retryable once
 * the rollup has run (docs/decisions.md).
 */
const resolveSnapshot = async (
  sql: Sql,
  clock: Clock,
  period: Period,
  date: string | undefined,
): Promise<SnapshotRef> => {
  const today = todayOf(clock);
  const snapshot = date !== undefined && date > today ? null : await findSnapshot(sql, period, date, today);
  if (snapshot) return snapshot;
  const runs = await snapshotRuns(sql, period, today);
  if (runs.length === 0 || date === undefined) throw notComputedYet();
  const why =
    date !== undefined && date > today ? `is in the future (today is ${today} UTC)` : "has no computed data";
  const message = `${why} for period ${period}; dates available: ${describeRuns(runs)}`;
  throw new ApiError("validation_failed", `Invalid query parameter date: ${message}`, {
    issues: [{ location: "query", field: "date", message }],
    available_dates: runs.slice(-AVAILABLE_RUNS_LISTED),
  });
};

/**
 * The snapshot a batch reads (`resolveSnapshot`), through the snapshot cache: which snapshot is
 * the latest may lag by a second. The default's key holds today, so it moves to a new day's
 * snapshot at midnight.
 */
export const snapshotFor = (
  reads: Pick<ReadDeps, "snapshots" | "sql" | "clock">,
  period: Period,
  date: string | undefined,
): Promise<SnapshotRef> =>
  reads.snapshots.get(`${period}|${date ?? `latest<=${todayOf(reads.clock)}`}`, 1_000, () =>
    resolveSnapshot(reads.sql, reads.clock, period, date),
  );

/**
 * A read in one statement that resolves its snapshot itself (data/analytics-reads.ts), for the
 * period and date asked (the default when `date` is absent; a date after today finds none). The
 * read gives null when there is no such snapshot: then, and only then, `resolveSnapshot` runs its
 * statements to tell why (a 422 naming `date`, or a 503), or finds the snapshot rolled up since, which
 * is read by its date. A GET's snapshot is not kept apart from its answer: the response cache keeps
 * the answer, and a rollup shows with the first miss after the data fingerprint moves.
 */
export const atSnapshot = async <T>(
  reads: Pick<ReadDeps, "sql" | "clock">,
  period: Period,
  date: string | undefined,
  read: (asked: SnapshotAsked) => Promise<T | null>,
): Promise<T> => {
  const today = todayOf(reads.clock);
  const found = await read({ period, date: date ?? null, today });
  if (found !== null) return found;
  const snapshot = await resolveSnapshot(reads.sql, reads.clock, period, date);
  const rolledUp = await read({ period, date: snapshot.date, today });
  if (rolledUp === null) throw notComputedYet();
  return rolledUp;
};
