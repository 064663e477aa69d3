import type { Period } from "@gmi/contract";
import type pg from "pg";
import { type SearchOrderPage, searchOrderPages } from "../data/search-orders.js";
import type { Sql } from "../data/sql.js";
import { insertWritten, type WrittenTable } from "../db/copy/bulk-insert.js";
import {
  CONDITION_SNAPSHOT_ROWS,
  LIQUIDITY_SNAPSHOT_ROWS,
  SEARCH_SNAPSHOT_ORDERS,
  SEARCH_SNAPSHOT_ROWS,
  SNAPSHOT_ROW_TABLES,
} from "../db/tables/snapshot-rows.js";
import type { ConditionSnapshotFields } from "../domain/analytics/conditions.js";
import type { LiquiditySnapshotFields } from "../domain/analytics/liquidity.js";
import type { SearchSnapshotFields } from "../domain/analytics/search-rows.js";
import type { IsoDay } from "../domain/analytics/windows.js";

export type SnapshotContent = {
  liquidity: readonly LiquiditySnapshotFields[];
  searches: readonly SearchSnapshotFields[];
  conditions: readonly ConditionSnapshotFields[];
};

/**
 * The writers of the snapshot row tables (db/tables/snapshot-rows.ts), each row written after its
 * `snapshot_id` (ofSnapshot), a field per column in the declaration's order.
 */
const LIQUIDITY: WrittenTable<LiquiditySnapshotFields, typeof LIQUIDITY_SNAPSHOT_ROWS> = {
  table: LIQUIDITY_SNAPSHOT_ROWS,
  write: (f, r) => {
    f.int("scope_console_id", r.scopeConsoleId);
    f.int("game_id", r.gameId);
    f.int("redirects", r.redirects);
    f.int("distinct_users", r.distinctUsers);
    f.int("watch_count", r.watchCount);
    f.int("search_count", r.searchCount);
    f.float8("demand_index", r.demandIndex);
    f.float8("momentum_value", r.momentumValue);
    f.text("momentum_label", r.momentumLabel);
    f.float8("price_accessibility", r.priceAccessibility);
    f.int("liquidity_score", r.liquidityScore);
    f.int("rank_liquidity", r.rankLiquidity);
    f.int("rank_demand", r.rankDemand);
    f.int("rank_value", r.rankValue);
  },
};

const SEARCHES: WrittenTable<SearchSnapshotFields, typeof SEARCH_SNAPSHOT_ROWS> = {
  table: SEARCH_SNAPSHOT_ROWS,
  write: (f, r) => {
    f.int("scope_console_id", r.scopeConsoleId);
    f.text("query", r.query);
    f.int("search_count", r.searchCount);
    f.int("pricing_count", r.pricingCount);
    f.int("site_search_count", r.siteSearchCount);
    f.int("distinct_users", r.distinctUsers);
    f.float8("mobile_share", r.mobileShare);
    f.float8("avg_result_count", r.avgResultCount);
    f.int("zero_result_count", r.zeroResultCount);
    f.float8("zero_result_share", r.zeroResultShare);
    f.float8("momentum_value", r.momentumValue);
    f.text("momentum_label", r.momentumLabel);
    f.int("demand_score", r.demandScore);
    f.int("rank_volume", r.rankVolume);
    f.int("rank_momentum", r.rankMomentum);
    f.int("rank_unmet", r.rankUnmet);
    f.int("mobile_count", r.mobileCount);
    f.float8("result_count_sum", r.resultCountSum);
  },
};

const SEARCH_ORDERS: WrittenTable<SearchOrderPage, typeof SEARCH_SNAPSHOT_ORDERS> = {
  table: SEARCH_SNAPSHOT_ORDERS,
  write: (f, o) => {
    f.int("scope_console_id", o.scopeConsoleId);
    f.text("sort", o.sort);
    f.int("page", o.page);
    f.intArray("volume_ranks", o.volumeRanks);
  },
};

const CONDITIONS: WrittenTable<ConditionSnapshotFields, typeof CONDITION_SNAPSHOT_ROWS> = {
  table: CONDITION_SNAPSHOT_ROWS,
  write: (f, r) => {
    f.int("game_id", r.gameId);
    f.text("condition", r.condition);
    f.int("rank", r.rank);
    f.int("search_count", r.searchCount);
    f.float8("condition_share", r.conditionShare);
    f.int("distinct_users", r.distinctUsers);
    f.float8("mobile_share", r.mobileShare);
    f.int("redirects", r.redirects);
    f.int("watch_count", r.watchCount);
    f.int("mobile_count", r.mobileCount);
  },
};

/** Deletes the snapshots of `date` (of one period, or of all three) and their rows. */
export const deleteSnapshots = async (sql: Sql, date: IsoDay, period?: Period): Promise<void> => {
  const { rows } = await sql.query<{ id: number }>(
    "DELETE FROM snapshots WHERE date = $1 AND ($2::text IS NULL OR period = $2) RETURNING id",
    [date, period ?? null],
  );
  if (rows.length === 0) return;
  const ids = rows.map((r) => r.id);
  for (const table of SNAPSHOT_ROW_TABLES)
    await sql.query(`DELETE FROM ${table.name} WHERE snapshot_id = ANY($1::int[])`, [ids]);
};

/** Rows of a snapshot, in parts: a rollup adds each table (or scope) as soon as it is scored. */
export type SnapshotPart = Partial<SnapshotContent>;

/** A snapshot being written in its own transaction: readers see it only once committed. */
export type SnapshotWrite = {
  id: number;
  /** Writes a part; parts added before the previous one is written wait their turn. */
  add(part: SnapshotPart): Promise<void>;
  /**
   * `cellsVersion`: the version of the cells its rows were read at (cell-versions.ts), if known;
   * `dayHasEvents`: whether its date itself had events (a default date only then; true if not said).
   */
  commit(done: { durationMs: number; cellsVersion?: number; dayHasEvents?: boolean }): Promise<void>;
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
      commit: async ({ durationMs, cellsVersion, dayHasEvents = true }) => {
        await written;
        // computed_at is when the rows were all in, not when the transaction began.
        await client.query(
          `UPDATE snapshots SET duration_ms = $2, cells_version = $3, day_has_events = $4,
             computed_at = clock_timestamp() WHERE id = $1`,
          [id, Math.round(durationMs), cellsVersion ?? null, dayHasEvents],
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
  const write = <T>(table: WrittenTable<T>, rows: readonly T[]) =>
    insertWritten(client, ofSnapshot(id, table), rows, options);
  if (part.liquidity) await write(LIQUIDITY, part.liquidity);
  if (part.searches) {
    await write(SEARCHES, part.searches);
    // The order pages of the scopes this part holds (a part holds whole scopes).
    await write(SEARCH_ORDERS, searchOrderPages(part.searches));
  }
  if (part.conditions) await write(CONDITIONS, part.conditions);
};

/** A snapshot table's rows, each after the snapshot's id. */
const ofSnapshot = <T>(id: number, table: WrittenTable<T>): WrittenTable<T> => ({
  table: table.table,
  write: (f, row) => {
    f.int("snapshot_id", id);
    table.write(f, row);
  },
});
