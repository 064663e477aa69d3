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
  // Per scope and sort, the volume rank at each position of the order.
  const orders = new Map<number, Record<SearchOrderSort, number[]>>();
  for (const row of rows) {
    let scope = orders.get(row.scopeConsoleId);
    if (!scope) {
      scope = { momentum: [], unmet: [] };
      orders.set(row.scopeConsoleId, scope);
    }
    if (row.rankMomentum !== null) scope.momentum[row.rankMomentum - 1] = row.rankVolume;
    if (row.rankUnmet !== null) scope.unmet[row.rankUnmet - 1] = row.rankVolume;
  }
  const pages: SearchOrderPage[] = [];
  for (const [scopeConsoleId, scope] of orders) {
    for (const sort of SORTS) {
      const volumeRanks = scope[sort];
      for (let page = 0; page * ORDER_PAGE_SIZE < volumeRanks.length; page++) {
        const slice = volumeRanks.slice(page * ORDER_PAGE_SIZE, (page + 1) * ORDER_PAGE_SIZE);
        // A hole (iterated as undefined) would shift every later rank of the list.
        for (const rank of slice as (number | undefined)[]) {
          if (rank === undefined)
            throw new RangeError(`the ${sort} ranks of scope ${scopeConsoleId} are not dense`);
        }
        pages.push({ scopeConsoleId, sort, page, volumeRanks: slice });
      }
    }
  }
  return pages;
};
