import type { Period } from "@gmi/contract";
import type pg from "pg";
import type { ConditionSnapshotFields } from "../domain/analytics/conditions.js";
import type { LiquiditySnapshotFields } from "../domain/analytics/liquidity.js";
import type { SearchSnapshotFields } from "../domain/analytics/search-rows.js";
import type { IsoDay } from "../domain/analytics/windows.js";
import { bulkInsert, type Table } from "./bulk-insert.js";
import { searchOrderPages } from "./search-orders.js";
import type { Sql } from "./sql.js";

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
  ["mobile_count", "int"],
  ["result_count_sum", "float8"],
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

/** The tables holding a snapshot's rows, keyed by `snapshot_id`. */
export const SNAPSHOT_ROW_TABLES = [LIQUIDITY, SEARCHES, SEARCH_ORDERS, CONDITIONS].map((t) => t.name);

/** Deletes the snapshots of `date` (of one period, or of all three) and their rows. */
export const deleteSnapshots = async (sql: Sql, date: IsoDay, period?: Period): Promise<void> => {
  const { rows } = await sql.query<{ id: number }>(
    "DELETE FROM snapshots WHERE date = $1 AND ($2::text IS NULL OR period = $2) RETURNING id",
    [date, period ?? null],
  );
  if (rows.length === 0) return;
  const ids = rows.map((r) => r.id);
  for (const table of SNAPSHOT_ROW_TABLES)
    await sql.query(`DELETE FROM ${table} WHERE snapshot_id = ANY($1::int[])`, [ids]);
};

/** Rows of a snapshot, in parts: a rollup adds each table (or scope) as soon as it is scored. */
export type SnapshotPart = Partial<SnapshotContent>;

/** A snapshot being written in its own transaction: readers see it only once committed. */
export type SnapshotWrite = {
  id: number;
  /** Writes a part; parts added before the previous one is written wait their turn. */
  add(part: SnapshotPart): Promise<void>;
  /** `cellsVersion`: the version of the cells its rows were read at (cell-versions.ts), if known. */
  commit(done: { durationMs: number; cellsVersion?: number }): Promise<void>;
  rollback(): Promise<void>;
};

/**
 * Starts replacing the snapshot of (period, date) in one transaction on `client`: readers resolve
 * a snapshot id through `snapshots`, so they see the old snapshot's rows or the new one's, never a
 * mix or a half. The caller commits or rolls back, and releases the client after.
 */
export const beginSnapshot = async (
  client: pg.PoolClient,
  key: { period: Period; date: IsoDay },
  options: { copy: boolean },
): Promise<SnapshotWrite> => {
  await client.query("BEGIN");
  try {
    // Serializes concurrent rollups (two replicas' schedules, an operator's run) per (period, date).
    await client.query("SELECT pg_advisory_xact_lock(hashtext('snapshot:' || $1 || ':' || $2))", [
      key.period,
      key.date,
    ]);
    await deleteSnapshots(client, key.date, key.period);
    const inserted = await client.query<{ id: number }>(
      "INSERT INTO snapshots (period, date, duration_ms) VALUES ($1, $2, 0) RETURNING id",
      [key.period, key.date],
    );
    const id = inserted.rows[0]?.id as number;
    // One part at a time on the connection; after a failure every later part fails with it.
    let written: Promise<void> = Promise.resolve();
    return {
      id,
      add: (part) => {
        written = written.then(() => writePart(client, id, part, options));
        return written;
      },
      commit: async ({ durationMs, cellsVersion }) => {
        await written;
        // computed_at is when the rows were all in, not when the transaction began.
        await client.query(
          "UPDATE snapshots SET duration_ms = $2, cells_version = $3, computed_at = clock_timestamp() WHERE id = $1",
          [id, Math.round(durationMs), cellsVersion ?? null],
        );
        await client.query("COMMIT");
      },
      rollback: async () => {
        await written.catch(() => {});
        await client.query("ROLLBACK");
      },
    };
  } catch (error) {
    await client.query("ROLLBACK");
    throw error;
  }
};

/** Replaces the snapshot of (period, date) with `content`, in one transaction; returns its id. */
export const replaceSnapshot = async (
  client: pg.PoolClient,
  key: { period: Period; date: IsoDay; durationMs: number },
  content: SnapshotContent,
  options: { copy: boolean },
): Promise<number> => {
  const snapshot = await beginSnapshot(client, key, options);
  try {
    await snapshot.add(content);
    await snapshot.commit({ durationMs: key.durationMs });
    return snapshot.id;
  } catch (error) {
    await snapshot.rollback();
    throw error;
  }
};

const writePart = async (
  client: pg.PoolClient,
  id: number,
  part: SnapshotPart,
  options: { copy: boolean },
) => {
  if (part.liquidity)
    await bulkInsert(
      client,
      LIQUIDITY,
      part.liquidity.map((r) => [
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
  if (part.searches) {
    await bulkInsert(
      client,
      SEARCHES,
      part.searches.map((r) => [
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
        r.mobileCount,
        r.resultCountSum,
      ]),
      options,
    );
    // The order pages of the scopes this part holds (a part holds whole scopes).
    await bulkInsert(
      client,
      SEARCH_ORDERS,
      searchOrderPages(part.searches).map((o) => [id, o.scopeConsoleId, o.sort, o.page, o.volumeRanks]),
      options,
    );
  }
  if (part.conditions)
    await bulkInsert(
      client,
      CONDITIONS,
      part.conditions.map((r) => [
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
};
