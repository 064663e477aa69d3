import type { Period } from "@gmi/contract";
import type pg from "pg";
import { searchOrderPages } from "../data/search-orders.js";
import type { Sql } from "../data/sql.js";
import { declaredWriter, insertWritten, type WrittenTable } from "../db/copy/bulk-insert.js";
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
 * The writers of the snapshot row tables, derived from their declarations (db/tables/snapshot-rows.ts):
 * each row written after its `snapshot_id` (ofSnapshot), a field per column in the declaration's order.
 */
const LIQUIDITY = declaredWriter(LIQUIDITY_SNAPSHOT_ROWS, ["snapshot_id"]);
const SEARCHES = declaredWriter(SEARCH_SNAPSHOT_ROWS, ["snapshot_id"]);
const SEARCH_ORDERS = declaredWriter(SEARCH_SNAPSHOT_ORDERS, ["snapshot_id"]);
const CONDITIONS = declaredWriter(CONDITION_SNAPSHOT_ROWS, ["snapshot_id"]);

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
