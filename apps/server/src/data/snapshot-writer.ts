import type { Period } from "@gmi/contract";
import type pg from "pg";
import type { ConditionSnapshotFields } from "../domain/analytics/conditions.js";
import type { LiquiditySnapshotFields } from "../domain/analytics/liquidity.js";
import type { SearchSnapshotFields } from "../domain/analytics/search-rows.js";
import type { IsoDay } from "../domain/analytics/windows.js";
import { bulkInsert, type Table } from "./bulk-insert.js";
import { searchOrderPages } from "./search-orders.js";

export type SnapshotContent = {
  liquidity: readonly LiquiditySnapshotFields[];
  searches: readonly SearchSnapshotFields[];
  conditions: readonly ConditionSnapshotFields[];
};

const table = (name: string, columns: Array<[string, string]>): Table => ({
  name,
  columns: columns.map(([column, type]) => ({ name: column, type })),
});

const LIQUIDITY = table("liquidity_snapshot_rows", [
  ["snapshot_id", "int"],
  ["scope_console_id", "int"],
  ["game_id", "int"],
  ["redirects", "int"],
  ["distinct_users", "int"],
  ["watch_count", "int"],
  ["search_count", "int"],
  ["demand_index", "float8"],
  ["momentum_value", "float8"],
  ["momentum_label", "text"],
  ["price_accessibility", "float8"],
  ["liquidity_score", "int"],
  ["rank_liquidity", "int"],
  ["rank_demand", "int"],
  ["rank_value", "int"],
]);

const SEARCHES = table("search_snapshot_rows", [
  ["snapshot_id", "int"],
  ["scope_console_id", "int"],
  ["query", "text"],
  ["search_count", "int"],
  ["pricing_count", "int"],
  ["site_search_count", "int"],
  ["distinct_users", "int"],
  ["mobile_share", "float8"],
  ["avg_result_count", "float8"],
  ["zero_result_count", "int"],
  ["zero_result_share", "float8"],
  ["momentum_value", "float8"],
  ["momentum_label", "text"],
  ["demand_score", "int"],
  ["rank_volume", "int"],
  ["rank_momentum", "int"],
  ["rank_unmet", "int"],
]);

const SEARCH_ORDERS = table("search_snapshot_orders", [
  ["snapshot_id", "int"],
  ["scope_console_id", "int"],
  ["sort", "text"],
  ["page", "int"],
  ["volume_ranks", "int[]"],
]);

const CONDITIONS = table("condition_snapshot_rows", [
  ["snapshot_id", "int"],
  ["game_id", "int"],
  ["condition", "text"],
  ["rank", "int"],
  ["search_count", "int"],
  ["condition_share", "float8"],
  ["distinct_users", "int"],
  ["mobile_share", "float8"],
  ["redirects", "int"],
  ["watch_count", "int"],
]);

/**
 * Replaces the snapshot of (period, date) in one transaction: readers resolve a snapshot id through
 * `snapshots`, so they see the old snapshot's rows or the new one's, never a mix or a half.
 */
export const replaceSnapshot = async (
  client: pg.PoolClient,
  key: { period: Period; date: IsoDay; durationMs: number },
  content: SnapshotContent,
  options: { copy: boolean },
): Promise<number> => {
  await client.query("BEGIN");
  try {
    // Serializes concurrent rollups (two replicas' schedules, an operator's run) per (period, date).
    await client.query("SELECT pg_advisory_xact_lock(hashtext('snapshot:' || $1 || ':' || $2))", [
      key.period,
      key.date,
    ]);
    const old = await client.query<{ id: number }>(
      "DELETE FROM snapshots WHERE period = $1 AND date = $2 RETURNING id",
      [key.period, key.date],
    );
    for (const { id } of old.rows) {
      for (const t of [LIQUIDITY, SEARCHES, SEARCH_ORDERS, CONDITIONS])
        await client.query(`DELETE FROM ${t.name} WHERE snapshot_id = $1`, [id]);
    }
    const inserted = await client.query<{ id: number }>(
      "INSERT INTO snapshots (period, date, duration_ms) VALUES ($1, $2, $3) RETURNING id",
      [key.period, key.date, Math.round(key.durationMs)],
    );
    const id = inserted.rows[0]?.id as number;
    await bulkInsert(
      client,
      LIQUIDITY,
      content.liquidity.map((r) => [
        id,
        r.scopeConsoleId,
        r.gameId,
        r.redirects,
        r.distinctUsers,
        r.watchCount,
        r.searchCount,
        r.demandIndex,
        r.momentumValue,
        r.momentumLabel,
        r.priceAccessibility,
        r.liquidityScore,
        r.rankLiquidity,
        r.rankDemand,
        r.rankValue,
      ]),
      options,
    );
    await bulkInsert(
      client,
      SEARCHES,
      content.searches.map((r) => [
        id,
        r.scopeConsoleId,
        r.query,
        r.searchCount,
        r.pricingCount,
        r.siteSearchCount,
        r.distinctUsers,
        r.mobileShare,
        r.avgResultCount,
        r.zeroResultCount,
        r.zeroResultShare,
        r.momentumValue,
        r.momentumLabel,
        r.demandScore,
        r.rankVolume,
        r.rankMomentum,
        r.rankUnmet,
      ]),
      options,
    );
    await bulkInsert(
      client,
      SEARCH_ORDERS,
      searchOrderPages(content.searches).map((o) => [id, o.scopeConsoleId, o.sort, o.page, o.volumeRanks]),
      options,
    );
    await bulkInsert(
      client,
      CONDITIONS,
      content.conditions.map((r) => [
        id,
        r.gameId,
        r.condition,
        r.rank,
        r.searchCount,
        r.conditionShare,
        r.distinctUsers,
        r.mobileShare,
        r.redirects,
        r.watchCount,
      ]),
      options,
    );
    await client.query("COMMIT");
    return id;
  } catch (error) {
    await client.query("ROLLBACK");
    throw error;
  }
};
