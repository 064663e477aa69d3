import type pg from "pg";
import { bulkInsert, copyBinaryBlocks, type Row, type Table } from "../db/copy/bulk-insert.js";
import { BinaryCopyEncoder } from "../db/copy/copy-binary.js";
import { REDIRECT_EVENTS, SEARCH_EVENTS, WATCH_EVENTS } from "../db/tables/events.js";
import { type ColumnType, type TableDeclaration, writtenColumns } from "../db/tables/table.js";
import type { RedirectRecord, SearchRecord, WatchRecord } from "../domain/import/parse-line.js";

export type EventRecord = RedirectRecord | WatchRecord | SearchRecord;
/** A validated event with its dedupe key (domain/import/event-key.ts). */
export type KeyedEvent<R extends EventRecord = EventRecord> = { key: string; record: R };
export type WriteCounts = { inserted: number; updated: number };

type EventColumnType = Extract<ColumnType, "uuid" | "int4" | "text" | "timestamptz" | "date">;

/**
 * An event table: its columns (its declaration's, db/tables/events.ts) and an event's values in
 * their order, which go into INSERTs on the embedded database and, encoded by column type, into
 * binary COPY rows (`writeRow`).
 */
type EventTable<R extends EventRecord> = {
  name: string;
  columns: ReadonlyArray<{ name: string; type: EventColumnType }>;
  values(event: KeyedEvent<R>): Row;
};

type Encode = (out: BinaryCopyEncoder, column: string, value: never) => void;
const ENCODE: Record<EventColumnType, Encode> = {
  uuid: (out, column, value: string | null) => out.uuid(column, value),
  int4: (out, column, value: number | null) => out.int(column, value),
  text: (out, column, value: string | null) => out.text(column, value),
  timestamptz: (out, column, value: string | null) => out.timestamptz(column, value),
  date: (out, column, value: string | null) => out.date(column, value),
};

/** One binary COPY row from an event's values, each field encoded as its column's type. */
const writeRow = (out: BinaryCopyEncoder, table: EventTable<EventRecord>, values: Row) => {
  for (const [i, column] of table.columns.entries()) {
    ENCODE[column.type](out, column.name, values[i] as never);
  }
};

/** The columns the importer writes (all but the generated id), as declared, in table order. */
const eventColumns = (table: TableDeclaration) =>
  writtenColumns(table).map((column) => {
    if (!(column.type in ENCODE))
      throw new Error(`${table.name}.${column.name}: no event encoding for ${column.type}`);
    return column as { name: string; type: EventColumnType };
  });

const REDIRECTS: EventTable<RedirectRecord> = {
  name: REDIRECT_EVENTS.name,
  columns: eventColumns(REDIRECT_EVENTS),
  values: ({ key, record: r }) => [r.gameId, r.userId, r.occurredAt, r.day, r.condition, r.device, key],
};
const WATCHES: EventTable<WatchRecord> = {
  name: WATCH_EVENTS.name,
  columns: eventColumns(WATCH_EVENTS),
  values: ({ key, record: w }) => [w.gameId, w.userId, w.createdAt, w.removedAt, w.condition, key],
};
const SEARCHES: EventTable<SearchRecord> = {
  name: SEARCH_EVENTS.name,
  columns: eventColumns(SEARCH_EVENTS),
  values: ({ key, record: s }) => [
    s.rawQuery,
    s.query,
    s.userId,
    s.occurredAt,
    s.day,
    s.source,
    s.device,
    s.resultCount,
    s.condition,
    s.gameId,
    s.consoleId,
    key,
  ],
};

export const EVENT_TABLES = { redirect: REDIRECTS, watch: WATCHES, search: SEARCHES } as const;

const UNIQUE_VIOLATION = "23505";

/**
 * One batch of events of one type, as the importer gathers it: encoded at once into binary COPY
 * blocks (PostgreSQL), or kept as values (the embedded database, which has no COPY). Holding bytes
 * rather than parsed records or text keeps an import's memory small, and the server reads binary
 * timestamps, dates and UUIDs without parsing their text.
 */
export class EventBatch {
  count = 0;
  readonly blocks: Buffer[] = [];
  readonly rows: Row[] = [];
  /** The whole buffers the blocks are cut from, for `BlockPool.release` once the batch is written. */
  readonly buffers: Buffer[] = [];
  private readonly encoder: BinaryCopyEncoder | null;
  private readonly table: EventTable<EventRecord>;

  constructor(
    readonly type: EventRecord["type"],
    copy: boolean,
    pool: BlockPool = new BlockPool(),
  ) {
    this.encoder = copy
      ? new BinaryCopyEncoder(COPY_BLOCK, (size) => {
          const buffer = pool.take(size);
          this.buffers.push(buffer);
          return buffer;
        })
      : null;
    this.table = EVENT_TABLES[type] as unknown as EventTable<EventRecord>;
  }

  add(event: KeyedEvent): void {
    this.count += 1;
    if (this.encoder === null) {
      this.rows.push(this.table.values(event));
      return;
    }
    this.encoder.beginRow(this.table.columns.length);
    writeRow(this.encoder, this.table, this.table.values(event));
    const full = this.encoder.takeFullBlock();
    if (full) this.blocks.push(full);
  }

  /** Ends the COPY data; no row may be added after. */
  close(): void {
    if (this.encoder) this.blocks.push(this.encoder.end());
  }
}

const COPY_BLOCK = 64 * 1024;

/**
 * Block buffers reused from one batch to the next. An import encodes its whole file into blocks
 * (170 MB per million events); each one freshly allocated, they were freed only when V8's
 * collector got round to their Buffer objects, and on a busy machine the collector lagged: the
 * importer's RSS grew with the file (310-330 MB at 3M events with a JS heap of 20-85 MB). Reused,
 * the blocks are as many as the batches in memory at once hold, whatever the file's size.
 */
export class BlockPool {
  private readonly free: Buffer[] = [];

  take(size: number): Buffer {
    const reused = this.free.pop();
    if (reused !== undefined && reused.length === size) return reused;
    return Buffer.allocUnsafe(size);
  }

  /** The buffers of a batch whose write is done (nothing refers to its blocks any more). */
  release(buffers: readonly Buffer[]): void {
    for (const buffer of buffers) if (this.free.length < MAX_POOLED_BLOCKS) this.free.push(buffer);
  }

  get size(): number {
    return this.free.length;
  }
}

/** 512 blocks of 80 KiB: 40 MB, more than the four batches in memory at once (one per event type
 * filling, one being written) hold. */
const MAX_POOLED_BLOCKS = 512;

/**
 * Writes one batch inside the caller's transaction, storing no event twice (the unique
 * `event_key`). On PostgreSQL, first a plain COPY under a savepoint: a batch of events never seen
 * before, the usual case, goes in at COPY's speed. When a key is already stored (or repeated in the
 * batch) the COPY fails on the unique index and is rolled back to the savepoint, and the batch is
 * merged through a staging table instead (`merge`). The embedded database always merges.
 */
export const writeEvents = async (
  client: pg.PoolClient,
  batch: EventBatch,
  options: { copy: boolean },
): Promise<WriteCounts> => {
  if (batch.count === 0) return { inserted: 0, updated: 0 };
  const table = EVENT_TABLES[batch.type];
  if (options.copy) {
    await client.query("SAVEPOINT gmi_import_batch");
    try {
      await copyBinaryBlocks(client, table, batch.blocks);
      await client.query("RELEASE SAVEPOINT gmi_import_batch");
      return { inserted: batch.count, updated: 0 };
    } catch (error) {
      if ((error as { code?: string }).code !== UNIQUE_VIOLATION) throw error;
      await client.query("ROLLBACK TO SAVEPOINT gmi_import_batch");
      await client.query("RELEASE SAVEPOINT gmi_import_batch");
    }
  }
  return merge(client, batch, options);
};

/**
 * The batch into a temporary staging table, then into the events: keys already stored are skipped,
 * a key repeated in the batch is stored once. A stored alert not yet removed takes the removal a
 * line of the batch gives it (the same alert, exported again after its user removed it); of an
 * alert repeated in the batch, the line with a removal is the one stored.
 */
const merge = async (client: pg.PoolClient, batch: EventBatch, options: { copy: boolean }) => {
  const table = EVENT_TABLES[batch.type];
  const stage = `gmi_import_stage_${batch.type}`;
  const columns = table.columns.map((c) => `"${c.name}"`).join(", ");
  await client.query(
    `CREATE TEMP TABLE IF NOT EXISTS ${stage} ON COMMIT DROP AS SELECT ${columns} FROM "${table.name}" WITH NO DATA`,
  );
  await client.query(`TRUNCATE ${stage}`);
  const staged: Table = { name: stage, columns: table.columns };
  if (options.copy) await copyBinaryBlocks(client, staged, batch.blocks);
  else await bulkInsert(client, staged, batch.rows, { copy: false });
  let updated = 0;
  let order = "";
  if (batch.type === "watch") {
    const result = await client.query(
      `UPDATE watch_events w SET removed_at = s.removed_at
       FROM (SELECT DISTINCT ON (event_key) event_key, removed_at FROM ${stage}
             WHERE removed_at IS NOT NULL ORDER BY event_key, removed_at) s
       WHERE w.event_key = s.event_key AND w.removed_at IS NULL`,
    );
    updated = result.rowCount ?? 0;
    order = "DISTINCT ON (event_key)";
  }
  const inserted = await client.query(
    `INSERT INTO "${table.name}" (${columns})
     SELECT ${order} ${columns} FROM ${stage}
     ${batch.type === "watch" ? "ORDER BY event_key, removed_at NULLS LAST" : ""}
     ON CONFLICT (event_key) DO NOTHING`,
  );
  return { inserted: inserted.rowCount ?? 0, updated };
};
