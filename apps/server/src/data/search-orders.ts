import type { SearchSnapshotFields } from "../domain/analytics/search-rows.js";

/**
 * The momentum and unmet orders of a search snapshot are stored as pages of volume ranks
 * (schema.prisma, SearchSnapshotOrder) rather than as indexes on the rows: a page of a list is then
 * one order page read plus primary-key lookups, and a rollup writes a few hundred small rows instead
 * of maintaining two indexes over every search row.
 */
export const ORDER_PAGE_SIZE = 1000;

export type SearchOrderSort = "momentum" | "unmet";

export type SearchOrderPage = {
  scopeConsoleId: number;
  sort: SearchOrderSort;
  /** 0-based: the page holding ranks page·ORDER_PAGE_SIZE+1 .. (page+1)·ORDER_PAGE_SIZE. */
  page: number;
  volumeRanks: number[];
};

const SORTS: readonly SearchOrderSort[] = ["momentum", "unmet"];

/** The order pages of scored search rows (ranks dense from 1 within a scope and sort). */
export const searchOrderPages = (rows: readonly SearchSnapshotFields[]): SearchOrderPage[] => {
  // Per scope and sort, the volume rank at each position of the order, in arrays sized up front:
  // filled at scattered positions, a growing array went sparse and slow (~90 ms a rollup).
  const sizes = new Map<number, Record<SearchOrderSort, number>>();
  for (const row of rows) {
    const size = sizes.get(row.scopeConsoleId) ?? { momentum: 0, unmet: 0 };
    sizes.set(row.scopeConsoleId, size);
    if (row.rankMomentum !== null) size.momentum++;
    if (row.rankUnmet !== null) size.unmet++;
  }
  const orders = new Map<number, Record<SearchOrderSort, Int32Array>>();
  for (const [scope, size] of sizes)
    orders.set(scope, { momentum: new Int32Array(size.momentum), unmet: new Int32Array(size.unmet) });
  const place = (
    order: Int32Array,
    rank: number,
    volumeRank: number,
    sort: SearchOrderSort,
    scope: number,
  ) => {
    if (rank < 1 || rank > order.length || order[rank - 1] !== 0)
      throw new RangeError(`the ${sort} ranks of scope ${scope} are not dense`);
    order[rank - 1] = volumeRank;
  };
  for (const row of rows) {
    const order = orders.get(row.scopeConsoleId) as Record<SearchOrderSort, Int32Array>;
    if (row.rankMomentum !== null)
      place(order.momentum, row.rankMomentum, row.rankVolume, "momentum", row.scopeConsoleId);
    if (row.rankUnmet !== null)
      place(order.unmet, row.rankUnmet, row.rankVolume, "unmet", row.scopeConsoleId);
  }
  const pages: SearchOrderPage[] = [];
  for (const [scopeConsoleId, scope] of orders) {
    for (const sort of SORTS) {
      const volumeRanks = scope[sort];
      for (let page = 0; page * ORDER_PAGE_SIZE < volumeRanks.length; page++) {
        const slice = volumeRanks.subarray(page * ORDER_PAGE_SIZE, (page + 1) * ORDER_PAGE_SIZE);
        pages.push({ scopeConsoleId, sort, page, volumeRanks: Array.from(slice) });
      }
    }
  }
  return pages;
};
