import type { LiquidityRow, ListQuerySchema, SearchRow } from "@gmi/contract";
import type { z } from "zod";
import {
  countLiquidityRanked,
  countSearchRanked,
  countWithMomentum,
  type RankSlice,
  readLiquiditySlice,
  readSearchSlice,
} from "../data/analytics-reads.js";
import type { SnapshotRef } from "../data/snapshots.js";
import type { Sql } from "../data/sql.js";
import { ALL_CONSOLES } from "../domain/analytics/liquidity.js";
import {
  type IntelligenceSort,
  type SearchSort,
  searchPlace,
  toLiquidityRow,
  toPricing,
  toSearchRow,
} from "../domain/analytics/to-contract.js";
import type { CursorPosition } from "../domain/pagination/cursor.js";
import { fetchSize, type Listed, type PageRequest } from "../domain/pagination/page.js";
import { validationFailed } from "../errors.js";
import type { Caller } from "./caller.js";
import type { ReadDeps } from "./deps.js";
import { rankedPageMeta } from "./meta.js";
import { listPaging } from "./pages.js";
import { snapshotFor } from "./snapshot.js";

/** A list row and its place in the list's order (what a cursor resumes after). */
type Placed<Row> = { row: Row; place: number };

/**
 * One ranked list of a snapshot: the leaderboard in a sort, or a search list. `route` binds its
 * cursors, `name` tells its pages apart in the page cache, `sort` is its `meta.sort`; `count` says
 * how many rows a scope holds, `slice` reads the rows of a rank range with their places.
 */
export type RankedList<Row, Sort extends string> = {
  route: string;
  name: string;
  sort: Sort;
  count: (sql: Sql, snapshotId: number, scope: number) => Promise<number>;
  slice: (sql: Sql, snapshotId: number, scope: number, slice: RankSlice) => Promise<Placed<Row>[]>;
};

/** `GET /intelligence` in one sort: a row's place is its rank. */
export const leaderboard = <Sort extends IntelligenceSort>(sort: Sort): RankedList<LiquidityRow, Sort> => ({
  route: "intelligence.list",
  name: `leaderboard|${sort}`,
  sort,
  count: (sql, snapshotId, scope) => countLiquidityRanked(sql, snapshotId, scope, sort),
  slice: async (sql, snapshotId, scope, slice) =>
    (await readLiquiditySlice(sql, snapshotId, scope, sort, slice)).map((entry) => {
      const row = toLiquidityRow(entry.row, sort, entry.game.identity, toPricing(entry.game.prices));
      return { row, place: row.rank };
    }),
});

/** Search rows of a rank range of one order, placed in that order (their `rank` is the volume one). */
const placedSearchRows = async (
  sql: Sql,
  snapshotId: number,
  scope: number,
  sort: SearchSort,
  slice: RankSlice,
): Promise<Placed<SearchRow>[]> =>
  (await readSearchSlice(sql, snapshotId, scope, sort, slice)).map((row) => ({
    row: toSearchRow(row, sort),
    place: searchPlace(row, sort),
  }));

/** A search list in one order: `/searches` in the sort asked, `/unmet`. */
export const searchList = <Sort extends SearchSort>(
  route: string,
  sort: Sort,
): RankedList<SearchRow, Sort> => ({
  route,
  name: `search|${sort}`,
  sort,
  count: (sql, snapshotId, scope) => countSearchRanked(sql, snapshotId, scope, sort),
  slice: (sql, snapshotId, scope, slice) => placedSearchRows(sql, snapshotId, scope, sort, slice),
});

/**
 * `/trending`: the momentum order without the queries that have no momentum (no search in the 30
 * days), which that order ranks last: a slice of it is the momentum order's, cut where they begin.
 */
export const trendingList: RankedList<SearchRow, "momentum"> = {
  route: "demandIntent.trending",
  name: "search|trending",
  sort: "momentum",
  count: countWithMomentum,
  slice: async (sql, snapshotId, scope, slice) =>
    (await placedSearchRows(sql, snapshotId, scope, "momentum", slice)).filter(
      (placed) => placed.row.momentum.value !== null,
    ),
};

/**
 * Analytics cursors hold [snapshot date, rank]: a walk keeps reading the snapshot it started on
 * even when a newer rollup lands meanwhile, so its pages never shift. The links pin the same date.
 */
const cursorDate = (request: PageRequest): string | undefined => {
  if (request.mode !== "cursor" || request.after === null) return undefined;
  const [date] = request.after;
  return typeof date === "string" ? date : undefined;
};

const positionOf = (snapshot: SnapshotRef, rank: number): CursorPosition => [snapshot.date, rank];

/** Ranks are dense, so a page is a rank range; a cursor resumes after its rank. */
const rankSlice = (request: PageRequest): RankSlice => {
  if (request.mode === "page") return { fromRank: request.offset + 1, count: request.perPage };
  if (request.after === null) return { fromRank: 1, count: fetchSize(request) };
  const rank = request.after[1];
  if (typeof rank !== "number" || !Number.isInteger(rank) || rank < 0) {
    throw validationFailed("query", "cursor", "is not a position of this list");
  }
  return { fromRank: rank + 1, count: fetchSize(request) };
};

/** The rows of one page of a list and the list's total. */
const readPage = async <Row>(
  sql: Sql,
  list: RankedList<Row, string>,
  snapshot: SnapshotRef,
  scope: number,
  request: PageRequest,
): Promise<Listed<Placed<Row>>> => {
  const [rows, total] = await Promise.all([
    list.slice(sql, snapshot.id, scope, rankSlice(request)),
    list.count(sql, snapshot.id, scope),
  ]);
  return { rows, total };
};

/**
 * The answer of a ranked list endpoint (the leaderboard, the three search lists): the snapshot of
 * the period and date (a cursor keeps the date it started on; a `date` beside it must be that
 * one), the page read through the page cache (kept while the snapshot and the catalog it is joined
 * with are unchanged), and `{data, meta: {period, period_date, pagination, sort}, links}` whose
 * links pin the snapshot's date.
 */
export const rankedListBody = async <Row, Sort extends string>(
  reads: ReadDeps,
  caller: Caller,
  query: z.infer<typeof ListQuerySchema> & Record<string, unknown>,
  list: RankedList<Row, Sort>,
) => {
  const paging = listPaging(reads, caller, query, {
    route: list.route,
    scope: { period: query.period, console_id: query.console_id, sort: list.sort },
  });
  const started = cursorDate(paging.request);
  if (started !== undefined && query.date !== undefined && started !== query.date) {
    throw validationFailed(
      "query",
      "cursor",
      `walks the data of ${started}, not of date ${query.date}; restart from the first page`,
    );
  }
  const snapshot = await snapshotFor(reads, query.period, query.date ?? started);
  const scope = query.console_id ?? ALL_CONSOLES;
  const held = await reads.pageKey();
  const listed = await reads.pages.get(
    `${list.name}|${snapshot.id}|${scope}|${JSON.stringify(paging.request)}|${held.key}`,
    held.ttlMs,
    () => readPage(reads.sql, list, snapshot, scope, paging.request),
  );
  const page = paging.page(
    listed,
    (placed) => positionOf(snapshot, placed.place),
    (placed) => placed.row,
    { date: snapshot.date },
  );
  return { data: page.data, meta: rankedPageMeta(snapshot, page.pagination, list.sort), links: page.links };
};
