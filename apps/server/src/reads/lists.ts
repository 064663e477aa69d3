import type { LiquidityRow, ListQuerySchema, SearchRow } from "@gmi/contract";
import { dateOfWalk } from "@gmi/rules/pagination/snapshot-walk";
import type { z } from "zod";
import {
  type RankedPage,
  type RankSlice,
  readLeaderboardPage,
  readSearchPage,
  type SearchListName,
} from "../data/analytics-reads.js";
import type { SnapshotAsked, SnapshotRef } from "../data/snapshots.js";
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
import { fetchSize, type PageRequest } from "../domain/pagination/page.js";
import { validationFailed } from "../errors.js";
import type { Caller } from "./caller.js";
import type { ReadDeps } from "./deps.js";
import { rankedPageMeta } from "./meta.js";
import { listPaging } from "./pages.js";
import { atSnapshot } from "./snapshot.js";

/** A list row and its place in the list's order (what a cursor resumes after). */
type Placed<Row> = { row: Row; place: number };

/**
 * One ranked list of a snapshot: the leaderboard in a sort, or a search list. `route` binds its
 * cursors, `sort` is its `meta.sort`; `read` reads, in one statement, the snapshot asked, the rows
 * of a rank range with their places and how many rows the scope holds (null: no such snapshot).
 */
export type RankedList<Row, Sort extends string> = {
  route: string;
  sort: Sort;
  read: (
    sql: Sql,
    asked: SnapshotAsked,
    scope: number,
    slice: RankSlice,
  ) => Promise<RankedPage<Placed<Row>> | null>;
};

/** A page's rows turned into the list's placed rows. */
const placing = <Stored, Row>(
  page: RankedPage<Stored> | null,
  place: (stored: Stored) => Placed<Row>,
): RankedPage<Placed<Row>> | null => (page ? { ...page, rows: page.rows.map(place) } : null);

/** `GET /intelligence` in one sort: a row's place is its rank. */
export const leaderboard = <Sort extends IntelligenceSort>(sort: Sort): RankedList<LiquidityRow, Sort> => ({
  route: "intelligence.list",
  sort,
  read: async (sql, asked, scope, slice) =>
    placing(await readLeaderboardPage(sql, asked, scope, sort, slice), (entry) => {
      const row = toLiquidityRow(entry.row, sort, entry.game.identity, toPricing(entry.game.prices));
      return { row, place: row.rank };
    }),
});

/** A search list in the order of `sort`; `list` says which rows it holds (`trending`: momentum ones). */
const searchRows = <Sort extends SearchSort>(
  route: string,
  sort: Sort,
  list: SearchListName,
): RankedList<SearchRow, Sort> => ({
  route,
  sort,
  read: async (sql, asked, scope, slice) =>
    placing(await readSearchPage(sql, asked, scope, list, slice), (row) => ({
      row: toSearchRow(row, sort),
      place: searchPlace(row, sort),
    })),
});

/** A search list in one order: `/searches` in the sort asked, `/unmet`. */
export const searchList = <Sort extends SearchSort>(route: string, sort: Sort): RankedList<SearchRow, Sort> =>
  searchRows(route, sort, sort);

/**
 * `/trending`: the momentum order without the queries that have no momentum (no search in the 30
 * days), which that order ranks last: a slice of it is the momentum order's, cut where they begin.
 */
export const trendingList: RankedList<SearchRow, "momentum"> = searchRows(
  "demandIntent.trending",
  "momentum",
  "trending",
);

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

/**
 * The answer of a ranked list endpoint (the leaderboard, the three search lists): the snapshot of
 * the period and date (a cursor keeps the date it started on; a `date` beside it must be that
 * one) and the page, read in one statement (`RankedList.read`), and `{data, meta: {period,
 * period_date, pagination, sort}, links}` whose links pin the snapshot's date.
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
  const date = dateOfWalk(paging.request, query.date);
  const scope = query.console_id ?? ALL_CONSOLES;
  const slice = rankSlice(paging.request);
  const listed = await atSnapshot(reads, query.period, date, (asked) =>
    list.read(reads.sql, asked, scope, slice),
  );
  const { snapshot } = listed;
  const page = paging.page(
    listed,
    (placed) => positionOf(snapshot, placed.place),
    (placed) => placed.row,
    { date: snapshot.date },
  );
  return { data: page.data, meta: rankedPageMeta(snapshot, page.pagination, list.sort), links: page.links };
};
