import type { BatchMeta, GameIdentity, Pagination, Period } from "@gmi/contract";
import type { SnapshotRef } from "../data/snapshots.js";

/**
 * Every answer's `meta`, built here and only here (the contract's envelopes say which keys each
 * route has). Keys are written in the order the answers have always had them.
 */

/** The snapshot an answer was read from. */
export const snapshotMeta = (snapshot: SnapshotRef) => ({
  period: snapshot.period,
  period_date: snapshot.date,
});

/** A page of a catalog list. */
export const pageMeta = (pagination: Pagination) => ({ pagination });

/** A page of a snapshot's ranked list, in the sort it was ranked by. */
export const rankedPageMeta = <Sort extends string>(
  snapshot: SnapshotRef,
  pagination: Pagination,
  sort: Sort,
) => ({
  ...snapshotMeta(snapshot),
  pagination,
  sort,
});

/** One game's condition rows. */
export const gameConditionsMeta = (snapshot: SnapshotRef, game: GameIdentity) => ({
  ...snapshotMeta(snapshot),
  game,
});

/** A game's history over a date range. */
export const historyMeta = (period: Period, range: { from: string; to: string }) => ({
  period,
  from: range.from,
  to: range.to,
});

/** The games found by a slug or title. */
export const countMeta = (count: number) => ({ count });

/** A batch: the snapshot and how its items came out. */
export const batchMeta = (snapshot: SnapshotRef, batch: BatchMeta) => ({ ...snapshotMeta(snapshot), batch });

/** Nothing to say beyond the data (one game, the account). */
export const emptyMeta = () => ({});
