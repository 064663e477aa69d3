import type { SearchCondition } from "@gmi/contract";
import { SEARCH_CONDITIONS } from "@gmi/contract";
import { desc } from "./ranking.js";
import { largestRemainderShares, ratio, round4 } from "./rounding.js";
import type { ConditionSnapshotRow, Narrowed } from "./rows.js";

/** `game_id` of the market-wide condition rows. */
export const MARKET_WIDE = 0;

/** The fixed order of the four conditions: tie order of ranks and of share remainders. */
export const CONDITION_ORDER: readonly SearchCondition[] = SEARCH_CONDITIONS;

/**
 * What the data layer aggregates for one condition over the period window, from searches whose
 * `condition` is not null (market-wide, or restricted to one `game_id`). `redirects` and
 * `watchCount` are the game's redirects and alerts tagged with that condition (per-game rows only;
 * omitted means 0). A condition absent from the input is a zeroed row.
 */
export type ConditionAggregate = {
  condition: SearchCondition;
  searchCount: number;
  /** COUNT(DISTINCT user_id) over the window. */
  distinctUsers: number;
  mobileCount: number;
  redirects?: number;
  watchCount?: number;
};

/**
 * One `condition_snapshot_rows` row, as declared (db/tables/snapshot-rows.ts), its condition one of
 * the four.
 */
export type ConditionSnapshotFields = Narrowed<ConditionSnapshotRow, { condition: SearchCondition }>;

/**
 * Exactly four rows (loose, cib, new, any), returned in rank order: search count descending, ties
 * (zeroed rows included, so they always come last) in the fixed order loose, cib, new, any. Shares
 * are apportioned by largest remainder at 4 decimals, so they sum to exactly 1 when any search
 * exists and are all 0 otherwise. `any` never carries redirects or alerts: those name a listing
 * condition (the import stores an `any` on them as no condition).
 */
export const buildConditionRows = (
  gameId: number,
  aggregates: readonly ConditionAggregate[],
): ConditionSnapshotFields[] => {
  const byCondition = new Map<SearchCondition, ConditionAggregate>();
  for (const a of aggregates) {
    if (byCondition.has(a.condition)) throw new RangeError(`condition ${a.condition} appears twice`);
    byCondition.set(a.condition, a);
  }
  const filled = CONDITION_ORDER.map(
    (condition) =>
      byCondition.get(condition) ?? { condition, searchCount: 0, distinctUsers: 0, mobileCount: 0 },
  );
  const shares = largestRemainderShares(filled.map((a) => a.searchCount));
  return filled
    .map((a, order) => ({
      order,
      row: {
        gameId,
        condition: a.condition,
        rank: 0,
        searchCount: a.searchCount,
        conditionShare: shares[order] ?? 0,
        distinctUsers: a.distinctUsers,
        mobileShare: round4(ratio(a.mobileCount, a.searchCount)),
        redirects: a.condition === "any" ? 0 : (a.redirects ?? 0),
        watchCount: a.condition === "any" ? 0 : (a.watchCount ?? 0),
        mobileCount: a.mobileCount,
      },
    }))
    .sort((a, b) => desc(a.row.searchCount, b.row.searchCount) || a.order - b.order)
    .map(({ row }, index) => ({ ...row, rank: index + 1 }));
};
