import type pg from "pg";
import type { RedirectRecord, SearchRecord, WatchRecord } from "../domain/import/parse-line.js";
import { bulkInsert, type Row, type Table } from "./bulk-insert.js";

export type EventRecord = RedirectRecord | WatchRecord | SearchRecord;
/** A validated event with its dedupe key (domain/import/event-key.ts). */
export type KeyedEvent<R extends EventRecord = EventRecord> = { key: string; record: R };
export type WriteCounts = { inserted: number; updated: number };

type EventTable<R extends EventRecord> = Table & { values(event: KeyedEvent<R>): Row };

const REDIRECTS: EventTable<RedirectRecord> = {
  name: "redirect_events",
  columns: [
    { name: "event_key", type: "uuid" },
    { name: "game_id", type: "int" },
    { name: "user_id", type: "text" },
    { name: "occurred_at", type: "timestamptz" },
    { name: "day", type: "date" },
    { name: "condition", type: "text" },
    { name: "device", type: "text" },
  ],
  values: ({ key, record: r }) => [key, r.gameId, r.userId, r.occurredAt, r.day, r.condition, r.device],
};
const WATCHES: EventTable<WatchRecord> = {
  name: "watch_events",
  columns: [
    { name: "event_key", type: "uuid" },
    { name: "game_id", type: "int" },
    { name: "user_id", type: "text" },
    { name: "created_at", type: "timestamptz" },
    { name: "removed_at", type: "timestamptz" },
    { name: "condition", type: "text" },
  ],
  values: ({ key, record: w }) => [key, w.gameId, w.userId, w.createdAt, w.removedAt, w.condition],
};
const SEARCHES: EventTable<SearchRecord> = {
  name: "search_events",
  columns: [
    { name: "event_key", type: "uuid" },
    { name: "raw_query", type: "text" },
    { name: "query", type: "text" },
    { name: "user_id", type: "text" },
    { name: "occurred_at", type: "timestamptz" },
    { name: "day", type: "date" },
    { name: "source", type: "text" },
    { name: "device", type: "text" },
    { name: "result_count", type: "int" },
    { name: "condition", type: "text" },
    { name: "game_id", type: "int" },
    { name: "console_id", type: "int" },
  ],
  values: ({ key, record: s }) => [
    key,
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
  ],
};

export const EVENT_TABLES = { redirect: REDIRECTS, watch: WATCHES, search: SEARCHES } as const;

const UNIQUE_VIOLATION = "23505";

/**
 * Writes one batch of events of one type (keys distinct within the batch) inside the caller's
 * transaction, storing none twice. With `copy`, first COPY, under a savepoint: a batch of events
 * never seen before, the usual case, goes in at COPY's speed; when one of its keys is already
 * stored, the COPY fails on the unique index, is rolled back to the savepoint, and the batch goes
 * again as INSERTs that skip the stored keys. Without `copy` (the embedded database), those INSERTs.
 *
 * A watch whose key is stored and not yet removed takes the batch's removal: the same alert,
 * exported again after its user removed it.
 */
export const writeEvents = async <R extends EventRecord>(
  client: pg.PoolClient,
  type: R["type"],
  events: readonly KeyedEvent<R>[],
  options: { copy: boolean },
): Promise<WriteCounts> => {
  if (events.length === 0) return { inserted: 0, updated: 0 };
  const table = EVENT_TABLES[type] as unknown as EventTable<R>;
  if (options.copy) {
    await client.query("SAVEPOINT gmi_import_batch");
    try {
      await bulkInsert(client, table, events.map(table.values), { copy: true });
      await client.query("RELEASE SAVEPOINT gmi_import_batch");
      return { inserted: events.length, updated: 0 };
    } catch (error) {
      if ((error as { code?: string }).code !== UNIQUE_VIOLATION) throw error;
      await client.query("ROLLBACK TO SAVEPOINT gmi_import_batch");
      await client.query("RELEASE SAVEPOINT gmi_import_batch");
    }
  }
  const updated =
    type === "watch" ? await recordRemovals(client, events as readonly KeyedEvent<WatchRecord>[]) : 0;
  const inserted = await bulkInsert(client, table, events.map(table.values), {
    copy: false,
    onConflict: "(event_key) DO NOTHING",
  });
  return { inserted, updated };
};

/** Stored alerts still active whose line in this batch says they were removed: the removal is recorded. */
const recordRemovals = async (client: pg.PoolClient, events: readonly KeyedEvent<WatchRecord>[]) => {
  const removed = events.filter((e) => e.record.removedAt !== null);
  if (removed.length === 0) return 0;
  const result = await client.query(
    `UPDATE watch_events w SET removed_at = u.removed_at
     FROM unnest($1::uuid[], $2::timestamptz[]) AS u(event_key, removed_at)
     WHERE w.event_key = u.event_key AND w.removed_at IS NULL`,
    [removed.map((e) => e.key), removed.map((e) => e.record.removedAt)],
  );
  return result.rowCount ?? 0;
};
