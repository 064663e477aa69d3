import type { SearchSnapshotOrderRow } from "../db/tables/snapshot-rows.js";
import type { Narrowed } from "../db/tables/table.js";
import type { SearchSnapshotFields } from "../domain/analytics/search-rows.js";

/**
 * The momentum order (every row) and the unmet order (rows at the minimum search count or above)
 * of a search snapshot are stored as pages of volume ranks (schema.prisma, SearchSnapshotOrder)
 * rather than as indexes on the rows: a page of a list is then one order page read plus primary-key
 * lookups, and a rollup writes a few hundred small rows instead of maintaining two indexes over
 * every search row.
 */
export const ORDER_PAGE_SIZE = 1000;

export type SearchOrderSort = "momentum" | "unmet";

/** A `search_snapshot_orders` row, as declared (db/tables/snapshot-rows.ts). */
export type SearchOrderPage = Narrowed<
  SearchSnapshotOrderRow,
  { sort: SearchOrderSort; volumeRanks: number[] }
>;

const SORTS: readonly SearchOrderSort[] = ["momentum", "unmet"];

/**
 * The order pages of scored search rows (ranks dense from 1 within a scope and sort). Rows come
 * scope by scope, as `buildSearchRows` returns them: each scope is one run, read in one pass into
 * arrays reused from scope to scope (per-row map lookups and arrays grown at scattered positions
 * cost ~60 ms a rollup).
 */
export const searchOrderPages = (rows: readonly SearchSnapshotFields[]): SearchOrderPage[] => {
  const positions: Record<SearchOrderSort, Int32Array> = {
    momentum: new Int32Array(rows.length),
    unmet: new Int32Array(rows.length),
  };
  const pages: SearchOrderPage[] = [];
  const seen = new Set<number>();
  for (let start = 0; start < rows.length; ) {
    const scopeConsoleId = (rows[start] as SearchSnapshotFields).scopeConsoleId;
    if (seen.has(scopeConsoleId))
      throw new RangeError(`the rows of scope ${scopeConsoleId} are not together`);
    seen.add(scopeConsoleId);
    const placed = { momentum: 0, unmet: 0 };
    const place = (sort: SearchOrderSort, rank: number, volumeRank: number) => {
      const order = positions[sort];
      if (rank < 1 || rank > rows.length - start || order[rank - 1] !== 0)
        throw new RangeError(`the ${sort} ranks of scope ${scopeConsoleId} are not dense`);
      order[rank - 1] = volumeRank;
      placed[sort]++;
    };
    let end = start;
    for (
      ;
      end < rows.length && (rows[end] as SearchSnapshotFields).scopeConsoleId === scopeConsoleId;
      end++
    ) {
      const row = rows[end] as SearchSnapshotFields;
      if (row.rankMomentum !== null) place("momentum", row.rankMomentum, row.rankVolume);
      if (row.rankUnmet !== null) place("unmet", row.rankUnmet, row.rankVolume);
    }
    for (const sort of SORTS) {
      const order = positions[sort].subarray(0, placed[sort]);
      // Distinct ranks up to the count placed, with no hole: every slot is taken.
      if (order.includes(0))
        throw new RangeError(`the ${sort} ranks of scope ${scopeConsoleId} are not dense`);
      for (let page = 0; page * ORDER_PAGE_SIZE < order.length; page++) {
        const slice = order.subarray(page * ORDER_PAGE_SIZE, (page + 1) * ORDER_PAGE_SIZE);
        pages.push({ scopeConsoleId, sort, page, volumeRanks: Array.from(slice) });
      }
      positions[sort].fill(0, 0, end - start);
    }
    start = end;
  }
  return pages;
};
