import { declareTable, type RowOf } from "./table.js";

/**
 * The tables of a snapshot's rows (schema.prisma, "Rollup snapshots"), keyed by `snapshot_id`:
 * written by the rollup (rollup/snapshot-writer.ts), read by the snapshot reads. Each row's fields
 * are derived from its declaration (RowOf, below): the rollup builds them (domain/analytics/), the
 * writer writes them, the reads select them.
 */

export const LIQUIDITY_SNAPSHOT_ROWS = declareTable({
  name: "liquidity_snapshot_rows",
  columns: [
    { name: "snapshot_id", type: "int4" },
    { name: "scope_console_id", type: "int4" },
    { name: "game_id", type: "int4" },
    { name: "redirects", type: "int4" },
    { name: "distinct_users", type: "int4" },
    { name: "watch_count", type: "int4" },
    { name: "search_count", type: "int4" },
    { name: "demand_index", type: "float8" },
    { name: "momentum_value", type: "float8", nullable: true },
    { name: "momentum_label", type: "text" },
    { name: "price_accessibility", type: "float8" },
    { name: "liquidity_score", type: "int4" },
    // Null for a game without redirects in the window: it is not on the leaderboard.
    { name: "rank_liquidity", type: "int4", nullable: true },
    { name: "rank_demand", type: "int4", nullable: true },
    { name: "rank_value", type: "int4", nullable: true },
  ],
});

export const SEARCH_SNAPSHOT_ROWS = declareTable({
  name: "search_snapshot_rows",
  columns: [
    { name: "snapshot_id", type: "int4" },
    { name: "scope_console_id", type: "int4" },
    { name: "query", type: "text" },
    { name: "search_count", type: "int4" },
    { name: "pricing_count", type: "int4" },
    { name: "site_search_count", type: "int4" },
    { name: "distinct_users", type: "int4" },
    { name: "mobile_share", type: "float8" },
    { name: "avg_result_count", type: "float8" },
    { name: "zero_result_count", type: "int4" },
    { name: "zero_result_share", type: "float8" },
    { name: "momentum_value", type: "float8", nullable: true },
    { name: "momentum_label", type: "text" },
    { name: "demand_score", type: "int4" },
    { name: "rank_volume", type: "int4" },
    // Null without a 30-day baseline (excluded from trending).
    { name: "rank_momentum", type: "int4", nullable: true },
    // Null below the unmet minimum search count.
    { name: "rank_unmet", type: "int4", nullable: true },
    // The raw sums behind the rounded shares, from which the next date's rollup slides this window;
    // null in rows written before they were kept.
    { name: "mobile_count", type: "int4", nullable: true },
    { name: "result_count_sum", type: "float8", nullable: true },
  ],
});

/** Per (snapshot, scope, sort), pages of volume ranks in sort order (data/search-orders.ts). */
export const SEARCH_SNAPSHOT_ORDERS = declareTable({
  name: "search_snapshot_orders",
  columns: [
    { name: "snapshot_id", type: "int4" },
    { name: "scope_console_id", type: "int4" },
    { name: "sort", type: "text" },
    // 0-based: the page holding ranks page·ORDER_PAGE_SIZE+1 .. (page+1)·ORDER_PAGE_SIZE.
    { name: "page", type: "int4" },
    { name: "volume_ranks", type: "int4[]", nullable: true },
  ],
});

export const CONDITION_SNAPSHOT_ROWS = declareTable({
  name: "condition_snapshot_rows",
  columns: [
    { name: "snapshot_id", type: "int4" },
    // 0 = market-wide; otherwise the game's id.
    { name: "game_id", type: "int4" },
    { name: "condition", type: "text" },
    { name: "rank", type: "int4" },
    { name: "search_count", type: "int4" },
    { name: "condition_share", type: "float8" },
    { name: "distinct_users", type: "int4" },
    { name: "mobile_share", type: "float8" },
    { name: "redirects", type: "int4" },
    { name: "watch_count", type: "int4" },
    // The raw count behind `mobile_share` (rounded); null in rows written before it was kept.
    { name: "mobile_count", type: "int4", nullable: true },
  ],
});

/** The tables holding a snapshot's rows, each keyed by `snapshot_id`. */
export const SNAPSHOT_ROW_TABLES = [
  LIQUIDITY_SNAPSHOT_ROWS,
  SEARCH_SNAPSHOT_ROWS,
  SEARCH_SNAPSHOT_ORDERS,
  CONDITION_SNAPSHOT_ROWS,
] as const;

/** A snapshot table's row as the code holds it; its `snapshot_id` is the writer's (written first). */
export type LiquiditySnapshotRow = RowOf<typeof LIQUIDITY_SNAPSHOT_ROWS, "snapshot_id">;
export type SearchSnapshotRow = RowOf<typeof SEARCH_SNAPSHOT_ROWS, "snapshot_id">;
export type SearchSnapshotOrderRow = RowOf<typeof SEARCH_SNAPSHOT_ORDERS, "snapshot_id">;
export type ConditionSnapshotRow = RowOf<typeof CONDITION_SNAPSHOT_ROWS, "snapshot_id">;
