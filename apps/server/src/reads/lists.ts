import type { LiquidityRow, ListQuerySchema, SearchRow } from "@gmi/contract";
import type { z } from "zod";
import {
  countLiquidityRanked,
  countSearchRanked,
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

/**
 * Analytics cursors hold [snapshot date, rank]: a walk begun without `date` keeps reading the
 * snapshot it started on even when a newer rollup lands meanwhile, so its pages never shift.
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

const scopeOf = (consoleId: number | undefined) => consoleId ?? ALL_CONSOLES;

/** A list row and its place in the list's order (what a cursor resumes after). */
type Placed<Row> = { row: Row; place: number };

export const readLeaderboard = async (
  sql: Sql,
  snapshot: SnapshotRef,
  scope: number,
  sort: IntelligenceSort,
  request: PageRequest,
): Promise<Listed<Placed<LiquidityRow>>> => {
  const [entries, total] = await Promise.all([
    readLiquiditySlice(sql, snapshot.id, scope, sort, rankSlice(request)),
    countLiquidityRanked(sql, snapshot.id, scope, sort),
  ]);
  return {
    rows: entries.map((e) => {
      const row = toLiquidityRow(e.row, sort, e.game.identity, toPricing(e.game.prices));
      return { row, place: row.rank };
    }),
    total,
  };
};

export const readSearchList = async (
  sql: Sql,
  snapshot: SnapshotRef,
  scope: number,
  sort: SearchSort,
  request: PageRequest,
): Promise<Listed<Placed<SearchRow>>> => {
  const [rows, total] = await Promise.all([
    readSearchSlice(sql, snapshot.id, scope, sort, rankSlice(request)),
    countSearchRanked(sql, snapshot.id, scope, sort),
  ]);
  return { rows: rows.map((row) => ({ row: toSearchRow(row, sort), place: searchPlace(row, sort) })), total };
};

/**
 * Which ranked list of a snapshot: the leaderboard or a search list, in one sort. Cursors
 * are bound to `route`; pages are cached under `kind` and `sort`.
 */
export type RankedList<Row, Sort extends string> = {
  route: string;
  kind: "leaderboard" | "search";
  sort: Sort;
  read: (
    sql: Sql,
    snapshot: SnapshotRef,
    scope: number,
    request: PageRequest,
  ) => Promise<Listed<Placed<Row>>>;
};

/** A search list in one sort: the three search routes differ only in it (and in their route name). */
export const searchList = <Sort extends SearchSort>(
  route: string,
  sort: Sort,
): RankedList<SearchRow, Sort> => ({
  route,
  kind: "search",
  sort,
  read: (sql, snapshot, scope, request) => readSearchList(sql, snapshot, scope, sort, request),
});

/**
 * The answer of a ranked list endpoint (the leaderboard, the three search lists): the snapshot of
 * the period and date (a cursor keeps the date it started on), the page read through the page cache
 * (kept while the snapshot and the catalog it is joined with are unchanged), and
 * `{data, meta: {period, period_date, pagination, sort}, links}`.
 */
export const rankedListBody = async <Row, Sort extends string>(
  reads: ReadDeps,
  caller: Caller,
  query: z.infer<typeof ListQuerySchema>,
  list: RankedList<Row, Sort>,
) => {
  const paging = listPaging(reads, caller, query, {
    route: list.route,
    scope: { period: query.period, date: query.date, console_id: query.console_id, sort: list.sort },
  });
  const snapshot = await snapshotFor(reads, query.period, query.date ?? cursorDate(paging.request));
  const scope = scopeOf(query.console_id);
  const held = await reads.pageKey();
  const listed = await reads.pages.get(
    `${list.kind}|${snapshot.id}|${scope}|${list.sort}|${JSON.stringify(paging.request)}|${held.key}`,
    held.ttlMs,
    () => list.read(reads.sql, snapshot, scope, paging.request),
  );
  const page = paging.page(
    listed,
    (placed) => positionOf(snapshot, placed.place),
    (placed) => placed.row,
  );
  return { data: page.data, meta: rankedPageMeta(snapshot, page.pagination, list.sort), links: page.links };
};
