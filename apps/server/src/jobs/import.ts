import { createReadStream } from "node:fs";
import { stat } from "node:fs/promises";
import { createInterface } from "node:readline";
import { PassThrough, type Readable } from "node:stream";
import { createGunzip } from "node:zlib";
import type pg from "pg";
import { bulkInsert, type Table } from "../data/bulk-insert.js";
import { upsertConsoles, upsertGames } from "../data/catalog-import.js";
import { rebuildStaleCells } from "../data/event-cells.js";
import type { Database } from "../db/open.js";
import type {
  ConsoleRecord,
  GameRecord,
  ImportRecord,
  RedirectRecord,
  SearchRecord,
  WatchRecord,
} from "../domain/import/parse-line.js";
import { parseLine } from "../domain/import/parse-line.js";

/** A line the file cannot be loaded with; the whole file is rolled back. */
export class ImportRejected extends Error {
  constructor(
    readonly line: number,
    readonly reason: string,
  ) {
    super(`line ${line}: ${reason}`);
    this.name = "ImportRejected";
  }
}

export type ImportCounts = Record<ImportRecord["type"], number>;
export type ImportReport = { lines: number; counts: ImportCounts; durationMs: number };
export type ImportProgress = { lines: number; bytes: number; totalBytes: number | null };

const FLUSH_AT = 20_000;

const REDIRECTS: Table = {
  name: "redirect_events",
  columns: [
    { name: "game_id", type: "int" },
    { name: "user_id", type: "text" },
    { name: "occurred_at", type: "timestamptz" },
    { name: "day", type: "date" },
    { name: "condition", type: "text" },
    { name: "device", type: "text" },
  ],
};
const WATCHES: Table = {
  name: "watch_events",
  columns: [
    { name: "game_id", type: "int" },
    { name: "user_id", type: "text" },
    { name: "created_at", type: "timestamptz" },
    { name: "removed_at", type: "timestamptz" },
    { name: "condition", type: "text" },
  ],
};
const SEARCHES: Table = {
  name: "search_events",
  columns: [
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
};

/** Records waiting to be written; flushed in dependency order (consoles, games, then events). */
class Buffers {
  consoles: ConsoleRecord[] = [];
  games: GameRecord[] = [];
  redirects: RedirectRecord[] = [];
  watches: WatchRecord[] = [];
  searches: SearchRecord[] = [];

  add(record: ImportRecord) {
    if (record.type === "console") this.consoles.push(record);
    else if (record.type === "game") this.games.push(record);
    else if (record.type === "redirect") this.redirects.push(record);
    else if (record.type === "watch") this.watches.push(record);
    else this.searches.push(record);
  }

  get size() {
    return (
      this.consoles.length +
      this.games.length +
      this.redirects.length +
      this.watches.length +
      this.searches.length
    );
  }

  async flush(client: pg.PoolClient, copy: boolean) {
    const options = { copy };
    await upsertConsoles(client, this.consoles);
    await upsertGames(client, this.games);
    await bulkInsert(
      client,
      REDIRECTS,
      this.redirects.map((r) => [r.gameId, r.userId, r.occurredAt, r.day, r.condition, r.device]),
      options,
    );
    await bulkInsert(
      client,
      WATCHES,
      this.watches.map((w) => [w.gameId, w.userId, w.createdAt, w.removedAt, w.condition]),
      options,
    );
    await bulkInsert(
      client,
      SEARCHES,
      this.searches.map((s) => [
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
      ]),
      options,
    );
    this.consoles = [];
    this.games = [];
    this.redirects = [];
    this.watches = [];
    this.searches = [];
  }
}

/**
 * Loads NDJSON lines in one transaction: a bad line (its number and reason in `ImportRejected`)
 * rolls the whole source back, so a file is loaded entirely or not at all. Events go in through
 * COPY on PostgreSQL (batched INSERTs on the embedded database); the rollup's daily cells of the
 * days they fall on are rebuilt in the same transaction.
 */
export const importLines = async (
  db: Database,
  lines: AsyncIterable<string>,
  onLine: (lines: number) => void = () => {},
): Promise<ImportReport> => {
  const started = performance.now();
  const counts: ImportCounts = { console: 0, game: 0, redirect: 0, watch: 0, search: 0 };
  const buffers = new Buffers();
  const client = await db.pool.connect();
  let lineNumber = 0;
  try {
    await client.query("BEGIN");
    for await (const text of lines) {
      lineNumber += 1;
      const parsed = parseLine(text, lineNumber);
      if (parsed.kind === "error") throw new ImportRejected(parsed.error.line, parsed.error.reason);
      if (parsed.kind === "blank") continue;
      buffers.add(parsed.record);
      counts[parsed.record.type] += 1;
      if (buffers.size >= FLUSH_AT) {
        await buffers.flush(client, !db.embedded);
        onLine(lineNumber);
      }
    }
    await buffers.flush(client, !db.embedded);
    // The rollup reads daily cells, not events: the days this file touched are rebuilt before it
    // commits, so its events and their cells become visible together.
    await rebuildStaleCells(client);
    await client.query("COMMIT");
    onLine(lineNumber);
  } catch (error) {
    await client.query("ROLLBACK").catch(() => {});
    throw error;
  } finally {
    client.release();
  }
  return { lines: lineNumber, counts, durationMs: performance.now() - started };
};

/** `-` is standard input; gzip is recognised by its magic bytes, whatever the file is called. */
export const openSource = async (
  source: string,
  stdin: Readable = process.stdin,
): Promise<{ stream: Readable; totalBytes: number | null; bytesRead: () => number }> => {
  const raw = source === "-" ? stdin : createReadStream(source);
  const totalBytes = source === "-" ? null : (await stat(source)).size;
  let bytes = 0;
  raw.on("data", (chunk: Buffer) => {
    bytes += chunk.length;
  });
  return { stream: gunzipIfCompressed(raw), totalBytes, bytesRead: () => bytes };
};

const gunzipIfCompressed = (raw: Readable): Readable => {
  const out = new PassThrough();
  raw.once("error", (error) => out.destroy(error));
  raw.once("end", () => {
    if (!started) out.end();
  });
  let started = false;
  raw.once("data", (first: Buffer) => {
    started = true;
    let target: NodeJS.WritableStream = out;
    if (first[0] === 0x1f && first[1] === 0x8b) {
      const gunzip = createGunzip();
      gunzip.once("error", (error) => out.destroy(new Error(`not a valid gzip stream: ${error.message}`)));
      gunzip.pipe(out);
      target = gunzip;
    }
    target.write(first);
    raw.pipe(target);
  });
  return out;
};

/**
 * The lines of a stream, read only once iteration begins: a readline interface created earlier
 * emits lines while the importer is still opening its transaction, and those lines would be lost.
 */
async function* linesOf(stream: Readable): AsyncGenerator<string> {
  yield* createInterface({ input: stream, crlfDelay: Number.POSITIVE_INFINITY });
}

/** Imports one file (or `-`), reporting progress in bytes of the source as read. */
export const importFile = async (
  db: Database,
  source: string,
  onProgress: (progress: ImportProgress) => void = () => {},
  stdin?: Readable,
): Promise<ImportReport> => {
  const { stream, totalBytes, bytesRead } = await openSource(source, stdin);
  return importLines(db, linesOf(stream), (n) => onProgress({ lines: n, bytes: bytesRead(), totalBytes }));
};
