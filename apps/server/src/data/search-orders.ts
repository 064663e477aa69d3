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

const RANK_OF: Record<SearchOrderSort, (row: SearchSnapshotFields) => number | null> = {
  momentum: (row) => row.rankMomentum,
  unmet: (row) => row.rankUnmet,
};

/** The order pages of scored search rows (ranks dense from 1 within a scope and sort). */
export const searchOrderPages = (rows: readonly SearchSnapshotFields[]): SearchOrderPage[] => {
  const orders = new Map<string, { scopeConsoleId: number; sort: SearchOrderSort; volumeRanks: number[] }>();
  for (const row of rows) {
    for (const sort of ["momentum", "unmet"] as const) {
      const rank = RANK_OF[sort](row);
      if (rank === null) continue;
      const key = `${row.scopeConsoleId}:${sort}`;
      const order = orders.get(key) ?? { scopeConsoleId: row.scopeConsoleId, sort, volumeRanks: [] };
      orders.set(key, order);
      order.volumeRanks[rank - 1] = row.rankVolume;
    }
  }
  const pages: SearchOrderPage[] = [];
  for (const { scopeConsoleId, sort, volumeRanks } of orders.values()) {
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
  return pages;
};
