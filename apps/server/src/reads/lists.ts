import type { LiquidityRow, SearchRow } from "@gmi/contract";
import {
  countLiquidityRanked,
  countSearchRanked,
  type RankSlice,
  readLiquiditySlice,
  readSearchSlice,
} from "../data/analytics-reads.js";
import type { Listed } from "../data/catalog.js";
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
import { fetchSize, type PageRequest } from "../domain/pagination/page.js";
import { validationFailed } from "../errors.js";

/**
 * Analytics cursors hold [snapshot date, rank]: a walk begun without `date` keeps reading the
 * snapshot it started on even when a newer rollup lands meanwhile, so its pages never shift.
 */
export const cursorDate = (request: PageRequest): string | undefined => {
  if (request.mode !== "cursor" || request.after === null) return undefined;
  const [date] = request.after;
  return typeof date === "string" ? date : undefined;
};

export const positionOf = (snapshot: SnapshotRef, rank: number): CursorPosition => [snapshot.date, rank];

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

export const scopeOf = (consoleId: number | undefined) => consoleId ?? ALL_CONSOLES;

/** A list row and its place in the list's order (what a cursor resumes after). */
export type Placed<Row> = { row: Row; place: number };

export const leaderboardPage = async (
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

export const searchPage = async (
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
