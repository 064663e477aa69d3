import type { Period } from "@gmi/contract";
import { findSnapshot, type SnapshotRef, snapshotRange } from "../data/snapshots.js";
import type { Sql } from "../data/sql.js";
import { ApiError, validationFailed } from "../errors.js";
import type { ReadCache } from "./read-cache.js";

/**
 * The snapshot a request reads: the requested date's, else the latest computed for the period.
 * A date without a snapshot is a 422 naming `date` with the available range; no snapshot at all
 * (nothing rolled up yet) is a 503, retryable once the rollup has run (docs/decisions.md).
 */
export const resolveSnapshot = async (
  sql: Sql,
  period: Period,
  date: string | undefined,
): Promise<SnapshotRef> => {
  const snapshot = await findSnapshot(sql, period, date);
  if (snapshot) return snapshot;
  const range = await snapshotRange(sql, period);
  if (!range)
    throw new ApiError("service_unavailable", "analytics have not been computed yet: run `pnpm gmi rollup`");
  throw validationFailed(
    "query",
    "date",
    `has no computed data for period ${period}; dates from ${range.first} to ${range.latest} are available`,
  );
};

/** `resolveSnapshot` through the app's read cache: which snapshot is the latest may lag by a second. */
export const cachedSnapshot = (cache: ReadCache, sql: Sql, period: Period, date: string | undefined) =>
  cache.get(`snapshot|${period}|${date ?? "latest"}`, 1_000, () => resolveSnapshot(sql, period, date));
