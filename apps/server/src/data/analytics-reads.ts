import type { GameIdentity } from "@gmi/contract";
import { LIQUIDITY_SNAPSHOT_ROWS, SEARCH_SNAPSHOT_ROWS } from "../db/tables/snapshot-rows.js";
import { columnsExcept, selectFields } from "../db/tables/table.js";
import type {
  StoredConditionRow,
  StoredLiquidityRow,
  StoredSearchRow,
} from "../domain/analytics/to-contract.js";
import { ORDER_PAGE_SIZE } from "./search-orders.js";
import type { Sql } from "./sql.js";

/**
 * Reads of the rollup snapshots. Ranks are dense (1..N within a snapshot, scope and sort), so a page
 * is a rank range and a cursor a rank: no OFFSET scans, whatever the page number.
 */

export type GamePrices = { loose: string | null; complete: string | null; new: string | null };
export type GameInfo = { identity: GameIdentity; prices: GamePrices };

/** A slice of a ranking: ranks `fromRank`..`fromRank + count - 1`. */
export type RankSlice = { fromRank: number; count: number };

const LIQUIDITY_RANK = { liquidity: "rank_liquidity", demand: "rank_demand", value: "rank_value" } as const;
const SEARCH_RANK = { volume: "rank_volume", momentum: "rank_momentum", unmet: "rank_unmet" } as const;

/** A liquidity row as StoredLiquidityRow's fields (db/tables/snapshot-rows.ts). */
const LIQUIDITY_COLUMNS = selectFields(
  LIQUIDITY_SNAPSHOT_ROWS,
  columnsExcept(LIQUIDITY_SNAPSHOT_ROWS, ["snapshot_id"]),
  "r",
);

/** Identity and prices of a game, joined to its console; prices as two-decimal text. */
const GAME_COLUMNS = `g.id AS game_id, g.display_game_name AS game_name, g.marketplace_game_name AS game_slug,
  g.console_id AS game_console_id, c.name AS game_console_name,
  g.price_loose::text AS price_loose, g.price_complete::text AS price_complete, g.price_new::text AS price_new`;

type GameColumns = {
  game_id: number;
  game_name: string;
  game_slug: string;
  game_console_id: number;
  game_console_name: string;
  price_loose: string | null;
  price_complete: string | null;
  price_new: string | null;
};

const toGameInfo = (row: GameColumns): GameInfo => ({
  identity: {
    id: row.game_id,
    name: row.game_name,
    slug: row.game_slug,
    console_id: row.game_console_id,
    console_name: row.game_console_name,
  },
  prices: { loose: row.price_loose, complete: row.price_complete, new: row.price_new },
});

export type LeaderboardEntry = { row: StoredLiquidityRow; game: GameInfo };

/** How many rows a ranking of one snapshot and scope holds (its ranks are 1..n). */
const countRanked = async (sql: Sql, table: string, rank: string, snapshotId: number, scope: number) => {
  const { rows } = await sql.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM ${table} WHERE snapshot_id = $1 AND scope_console_id = $2 AND ${rank} IS NOT NULL`,
    [snapshotId, scope],
  );
  return rows[0]?.n ?? 0;
};

export const countLiquidityRanked = (
  sql: Sql,
  snapshotId: number,
  scope: number,
  sort: keyof typeof LIQUIDITY_RANK,
): Promise<number> => countRanked(sql, "liquidity_snapshot_rows", LIQUIDITY_RANK[sort], snapshotId, scope);

export const readLiquiditySlice = async (
  sql: Sql,
  snapshotId: number,
  scope: number,
  sort: keyof typeof LIQUIDITY_RANK,
  slice: RankSlice,
): Promise<LeaderboardEntry[]> => {
  const rank = `r.${LIQUIDITY_RANK[sort]}`;
  const { rows } = await sql.query<StoredLiquidityRow & GameColumns>(
    `SELECT ${LIQUIDITY_COLUMNS}, ${GAME_COLUMNS}
     FROM liquidity_snapshot_rows r JOIN games g ON g.id = r.game_id JOIN consoles c ON c.id = g.console_id
     WHERE r.snapshot_id = $1 AND r.scope_console_id = $2 AND ${rank} >= $3 AND ${rank} < $3 + $4
     ORDER BY ${rank}`,
    [snapshotId, scope, slice.fromRank, slice.count],
  );
  return rows.map((row) => ({ row, game: toGameInfo(row) }));
};

/**
 * The all-consoles rows of the given games (profile and batch). Only enabled games are returned:
 * an id missing from the result is unknown or disabled. `row` is null for an enabled game the
 * snapshot does not hold (added to the catalog after the rollup).
 */
export const readProfiles = async (
  sql: Sql,
  snapshotId: number,
  gameIds: readonly number[],
): Promise<Map<number, { row: StoredLiquidityRow | null; game: GameInfo }>> => {
  const { rows } = await sql.query<(StoredLiquidityRow & GameColumns) | (GameColumns & { gameId: null })>(
    `SELECT ${LIQUIDITY_COLUMNS}, ${GAME_COLUMNS}
     FROM games g JOIN consoles c ON c.id = g.console_id
     LEFT JOIN liquidity_snapshot_rows r ON r.snapshot_id = $1 AND r.scope_console_id = 0 AND r.game_id = g.id
     WHERE g.id = ANY($2::int[]) AND g.enabled`,
    [snapshotId, [...new Set(gameIds)]],
  );
  return new Map(
    rows.map((row) => [
      row.game_id,
      { row: row.gameId === null ? null : (row as StoredLiquidityRow), game: toGameInfo(row) },
    ]),
  );
};

/** The highest complete price among enabled games: the normalizer for a game missing from a snapshot. */
export const maxCompletePrice = async (sql: Sql): Promise<number> => {
  const { rows } = await sql.query<{ max: number | null }>(
    "SELECT max(price_complete)::float8 AS max FROM games WHERE enabled",
  );
  return rows[0]?.max ?? 0;
};

/** A search row as StoredSearchRow's fields; the sums kept for the next date's slide left out. */
const SEARCH_COLUMNS = selectFields(
  SEARCH_SNAPSHOT_ROWS,
  columnsExcept(SEARCH_SNAPSHOT_ROWS, ["snapshot_id", "mobile_count", "result_count_sum"]),
);

/** How many rows a search ranking holds: the volume one is every row, the others their order pages. */
export const countSearchRanked = async (
  sql: Sql,
  snapshotId: number,
  scope: number,
  sort: keyof typeof SEARCH_RANK,
): Promise<number> => {
  if (sort === "volume")
    return countRanked(sql, "search_snapshot_rows", SEARCH_RANK.volume, snapshotId, scope);
  const { rows } = await sql.query<{ n: number }>(
    `SELECT COALESCE(sum(cardinality(volume_ranks)), 0)::int AS n FROM search_snapshot_orders
     WHERE snapshot_id = $1 AND scope_console_id = $2 AND sort = $3`,
    [snapshotId, scope, sort],
  );
  return rows[0]?.n ?? 0;
};

/**
 * How many rows of a scope have a momentum value: `/trending` is the momentum order without the
 * rows that have none, which that order ranks last (domain/analytics/search-rows.ts).
 */
export const countWithMomentum = async (sql: Sql, snapshotId: number, scope: number): Promise<number> => {
  const { rows } = await sql.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM search_snapshot_rows
     WHERE snapshot_id = $1 AND scope_console_id = $2 AND momentum_value IS NOT NULL`,
    [snapshotId, scope],
  );
  return rows[0]?.n ?? 0;
};

/**
 * A slice of a search ranking. Volume ranks are the rows' key; a momentum or unmet slice is first
 * turned into volume ranks through the order pages that cover it (data/search-orders.ts).
 */
export const readSearchSlice = async (
  sql: Sql,
  snapshotId: number,
  scope: number,
  sort: keyof typeof SEARCH_RANK,
  slice: RankSlice,
): Promise<StoredSearchRow[]> => {
  const rank = SEARCH_RANK[sort];
  if (sort === "volume") {
    const { rows } = await sql.query<StoredSearchRow>(
      `SELECT ${SEARCH_COLUMNS} FROM search_snapshot_rows
       WHERE snapshot_id = $1 AND scope_console_id = $2 AND rank_volume >= $3 AND rank_volume < $3 + $4
       ORDER BY rank_volume`,
      [snapshotId, scope, slice.fromRank, slice.count],
    );
    return rows;
  }
  // Two statements rather than one join: planned together, a fresh snapshot's missing statistics
  // led the planner to a nested loop over every row of the scope (8 s at 10M events).
  const volumeRanks = await volumeRanksOf(sql, snapshotId, scope, sort, slice);
  if (volumeRanks.length === 0) return [];
  const { rows } = await sql.query<StoredSearchRow>(
    `SELECT ${SEARCH_COLUMNS} FROM search_snapshot_rows
     WHERE snapshot_id = $1 AND scope_console_id = $2 AND rank_volume = ANY($3::int[])
     ORDER BY ${rank}`,
    [snapshotId, scope, volumeRanks],
  );
  return rows;
};

/** The volume ranks of the rows ranked `slice` in a momentum or unmet order, in that order. */
const volumeRanksOf = async (
  sql: Sql,
  snapshotId: number,
  scope: number,
  sort: "momentum" | "unmet",
  slice: RankSlice,
): Promise<number[]> => {
  const first = slice.fromRank - 1;
  const end = first + slice.count;
  const { rows } = await sql.query<{ page: number; volume_ranks: number[] }>(
    `SELECT page, volume_ranks FROM search_snapshot_orders
     WHERE snapshot_id = $1 AND scope_console_id = $2 AND sort = $3 AND page BETWEEN $4 AND $5
     ORDER BY page`,
    [snapshotId, scope, sort, Math.floor(first / ORDER_PAGE_SIZE), Math.floor((end - 1) / ORDER_PAGE_SIZE)],
  );
  return rows.flatMap(({ page, volume_ranks }) => {
    const offset = page * ORDER_PAGE_SIZE;
    return volume_ranks.slice(Math.max(0, first - offset), Math.max(0, end - offset));
  });
};

/** The stored condition rows of one game (0 = market-wide); empty when it had no activity. */
export const readConditionRows = async (
  sql: Sql,
  snapshotId: number,
  gameId: number,
): Promise<StoredConditionRow[]> => {
  const { rows } = await sql.query<StoredConditionRow>(
    `SELECT game_id AS "gameId", condition, rank, search_count AS "searchCount", condition_share AS "conditionShare",
       distinct_users AS "distinctUsers", mobile_share AS "mobileShare", redirects, watch_count AS "watchCount"
     FROM condition_snapshot_rows WHERE snapshot_id = $1 AND game_id = $2 ORDER BY rank`,
    [snapshotId, gameId],
  );
  return rows;
};

/** One enabled game's identity and prices, or null for an unknown or disabled id. */
export const readGameInfo = async (sql: Sql, gameId: number): Promise<GameInfo | null> => {
  const { rows } = await sql.query<GameColumns>(
    `SELECT ${GAME_COLUMNS} FROM games g JOIN consoles c ON c.id = g.console_id WHERE g.id = $1 AND g.enabled`,
    [gameId],
  );
  return rows[0] ? toGameInfo(rows[0]) : null;
};
