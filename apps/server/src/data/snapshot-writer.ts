import type { Period } from "@gmi/contract";
import type pg from "pg";
import type { ConditionSnapshotFields } from "../domain/analytics/conditions.js";
import type { LiquiditySnapshotFields } from "../domain/analytics/liquidity.js";
import type { SearchSnapshotFields } from "../domain/analytics/search-rows.js";
import type { IsoDay } from "../domain/analytics/windows.js";
import { bulkInsert, type Row, type Table } from "./bulk-insert.js";
import { type SearchOrderPage, searchOrderPages } from "./search-orders.js";
import type { Sql } from "./sql.js";

export type SnapshotContent = {
  liquidity: readonly LiquiditySnapshotFields[];
  searches: readonly SearchSnapshotFields[];
  conditions: readonly ConditionSnapshotFields[];
};

/**
 * A table of snapshot rows: `snapshot_id`, then a column per field of the rows written into it,
 * each with the value it takes from a row.
 */
type SnapshotTable<T> = { table: Table; values: readonly ((row: T) => unknown)[] };

const snapshotTable = <T>(name: string, columns: ReadonlyArray<[string, string, (row: T) => unknown]>) => ({
  table: {
    name,
    columns: [
      { name: "snapshot_id", type: "int" },
      ...columns.map(([column, type]) => ({ name: column, type })),
    ],
  },
  values: columns.map(([, , value]) => value),
});

const LIQUIDITY = snapshotTable<LiquiditySnapshotFields>("liquidity_snapshot_rows", [
  ["scope_console_id", "int", (r) => r.scopeConsoleId],
  ["game_id", "int", (r) => r.gameId],
  ["redirects", "int", (r) => r.redirects],
  ["distinct_users", "int", (r) => r.distinctUsers],
  ["watch_count", "int", (r) => r.watchCount],
  ["search_count", "int", (r) => r.searchCount],
  ["demand_index", "float8", (r) => r.demandIndex],
  ["momentum_value", "float8", (r) => r.momentumValue],
  ["momentum_label", "text", (r) => r.momentumLabel],
  ["price_accessibility", "float8", (r) => r.priceAccessibility],
  ["liquidity_score", "int", (r) => r.liquidityScore],
  ["rank_liquidity", "int", (r) => r.rankLiquidity],
  ["rank_demand", "int", (r) => r.rankDemand],
  ["rank_value", "int", (r) => r.rankValue],
]);

const SEARCHES = snapshotTable<SearchSnapshotFields>("search_snapshot_rows", [
  ["scope_console_id", "int", (r) => r.scopeConsoleId],
  ["query", "text", (r) => r.query],
  ["search_count", "int", (r) => r.searchCount],
  ["pricing_count", "int", (r) => r.pricingCount],
  ["site_search_count", "int", (r) => r.siteSearchCount],
  ["distinct_users", "int", (r) => r.distinctUsers],
  ["mobile_share", "float8", (r) => r.mobileShare],
  ["avg_result_count", "float8", (r) => r.avgResultCount],
  ["zero_result_count", "int", (r) => r.zeroResultCount],
  ["zero_result_share", "float8", (r) => r.zeroResultShare],
  ["momentum_value", "float8", (r) => r.momentumValue],
  ["momentum_label", "text", (r) => r.momentumLabel],
  ["demand_score", "int", (r) => r.demandScore],
  ["rank_volume", "int", (r) => r.rankVolume],
  ["rank_momentum", "int", (r) => r.rankMomentum],
  ["rank_unmet", "int", (r) => r.rankUnmet],
  ["mobile_count", "int", (r) => r.mobileCount],
  ["result_count_sum", "float8", (r) => r.resultCountSum],
]);

const SEARCH_ORDERS = snapshotTable<SearchOrderPage>("search_snapshot_orders", [
  ["scope_console_id", "int", (o) => o.scopeConsoleId],
  ["sort", "text", (o) => o.sort],
  ["page", "int", (o) => o.page],
  ["volume_ranks", "int[]", (o) => o.volumeRanks],
]);

const CONDITIONS = snapshotTable<ConditionSnapshotFields>("condition_snapshot_rows", [
  ["game_id", "int", (r) => r.gameId],
  ["condition", "text", (r) => r.condition],
  ["rank", "int", (r) => r.rank],
  ["search_count", "int", (r) => r.searchCount],
  ["condition_share", "float8", (r) => r.conditionShare],
  ["distinct_users", "int", (r) => r.distinctUsers],
  ["mobile_share", "float8", (r) => r.mobileShare],
  ["redirects", "int", (r) => r.redirects],
  ["watch_count", "int", (r) => r.watchCount],
  ["mobile_count", "int", (r) => r.mobileCount],
]);

/** The tables holding a snapshot's rows, keyed by `snapshot_id`. */
export const SNAPSHOT_ROW_TABLES = [LIQUIDITY, SEARCHES, SEARCH_ORDERS, CONDITIONS].map((t) => t.table.name);

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
  const write = <T>(spec: SnapshotTable<T>, rows: readonly T[]) =>
    bulkInsert(client, spec.table, rowsOfSnapshot(id, spec, rows), options);
  if (part.liquidity) await write(LIQUIDITY, part.liquidity);
  if (part.searches) {
    await write(SEARCHES, part.searches);
    // The order pages of the scopes this part holds (a part holds whole scopes).
    await write(SEARCH_ORDERS, searchOrderPages(part.searches));
  }
  if (part.conditions) await write(CONDITIONS, part.conditions);
};

/**
 * A snapshot table's rows, made one at a time into one reused array (bulkInsert reads each row
 * before it asks for the next): ~200k arrays a rollup, and their garbage, showed in profiles.
 */
function* rowsOfSnapshot<T>(id: number, spec: SnapshotTable<T>, rows: readonly T[]): Generator<Row> {
  const { values } = spec;
  const row: unknown[] = new Array(values.length + 1);
  row[0] = id;
  for (const item of rows) {
    for (let i = 0; i < values.length; i++) row[i + 1] = (values[i] as (row: T) => unknown)(item);
    yield row;
  }
}
