import { createReadStream } from "node:fs";
import { stat } from "node:fs/promises";
import { PassThrough, type Readable } from "node:stream";
import { createGunzip } from "node:zlib";
import type pg from "pg";
import { type Clock, systemClock } from "../clock.js";
import { upsertConsoles, upsertGames } from "../data/catalog-import.js";
import { BlockPool, EventBatch, type EventRecord, writeEvents } from "../data/import-events.js";
import type { Database } from "../db/open.js";
import { dayOf } from "../domain/analytics/windows.js";
import { type Admission, refusal } from "../domain/import/admit.js";
import { eventKey } from "../domain/import/event-key.js";
import {
  type ConsoleRecord,
  type GameRecord,
  type ImportRecord,
  type LineError,
  MAX_LINE_LENGTH,
  parseLine,
} from "../domain/import/parse-line.js";

export type { LineError };
export type ImportCounts = Record<ImportRecord["type"], number>;
export type ImportReport = {
  /** Lines read, blank ones included. */
  lines: number;
  /** Valid lines per type, duplicates included. */
  counts: ImportCounts;
  /** Event lines stored, and event lines whose event was already stored (earlier in the file or before). */
  new: number;
  duplicates: number;
  /** Duplicates of a stored alert that recorded its removal (a subset of `duplicates`). */
  removalsRecorded: number;
  /** Lines refused (malformed, future-dated, unknown game); the first MAX_REPORTED of them in `errors`. */
  rejected: number;
  errors: LineError[];
  durationMs: number;
};
export type ImportProgress = { lines: number; bytes: number; totalBytes: number | null };

export type ImportOptions = {
  /** More rejected lines than this abort the file, loading nothing of it. Default DEFAULT_MAX_ERRORS. */
  maxErrors?: number;
  /** Whose today bounds event dates (clock.ts). */
  clock?: Clock;
  /** Called with the number of lines read, every PROGRESS_EVERY lines and at the end. */
  onProgress?: (lines: number) => void;
  /** Called for every rejected line, as it is found. */
  onReject?: (error: LineError) => void;
};

export const DEFAULT_MAX_ERRORS = 100;
/** Rejected lines kept in the report; every one is still counted and passed to `onReject`. */
export const MAX_REPORTED = 1_000;
/** Events of one type written per statement. At most one batch is being written while the next fills. */
const EVENT_BATCH = 50_000;
const CATALOG_BATCH = 5_000;
const PROGRESS_EVERY = 16_384;

/** The file went over `--max-errors`: nothing of it was loaded. */
export class ImportAborted extends Error {
  constructor(
    readonly rejected: number,
    readonly maxErrors: number,
    readonly errors: LineError[],
  ) {
    const last = errors.at(-1);
    super(
      `more than ${maxErrors} rejected lines${last ? ` (the last, line ${last.line}: ${last.reason})` : ""}; nothing from this file was loaded`,
    );
    this.name = "ImportAborted";
  }
}

type EventType = EventRecord["type"];

/**
 * One file's load on one connection, inside its transaction: lines are validated as they come and
 * gathered into batches per table; a full batch is written while the next lines are parsed, so
 * Node and PostgreSQL work at the same time, and at most one batch waits on the database (memory
 * stays bounded whatever the file's size).
 */
class Loader {
  readonly counts: ImportCounts = { console: 0, game: 0, redirect: 0, watch: 0, search: 0 };
  readonly errors: LineError[] = [];
  rejected = 0;
  inserted = 0;
  duplicates = 0;
  removalsRecorded = 0;
  private consoles: ConsoleRecord[] = [];
  private games: GameRecord[] = [];
  private events: Record<EventType, EventBatch>;
  private writing: Promise<void> | null = null;
  private readonly pool = new BlockPool();

  constructor(
    private readonly client: pg.PoolClient,
    private readonly copy: boolean,
    private readonly admission: Admission,
    private readonly knownGames: Set<number>,
    private readonly maxErrors: number,
    private readonly onReject: (error: LineError) => void,
    /** When the file's prices were seen, for game lines without an `observed_at`. */
    private readonly importedAt: string,
  ) {
    this.events = {
      redirect: new EventBatch("redirect", copy, this.pool),
      watch: new EventBatch("watch", copy, this.pool),
      search: new EventBatch("search", copy, this.pool),
    };
  }

  /** Takes one line; returns a promise to wait for when the line filled a batch. */
  take(text: string, line: number): Promise<void> | undefined {
    const parsed = parseLine(text, line);
    if (parsed.kind === "blank") return undefined;
    if (parsed.kind === "error") return this.reject(parsed.error);
    const record = parsed.record;
    const refused = refusal(record, this.admission);
    if (refused !== null) return this.reject({ line, reason: refused });
    this.counts[record.type] += 1;
    switch (record.type) {
      case "console":
        this.consoles.push(record);
        return this.consoles.length >= CATALOG_BATCH ? this.flushCatalog() : undefined;
      case "game":
        this.games.push(record);
        this.knownGames.add(record.id);
        return this.games.length >= CATALOG_BATCH ? this.flushCatalog() : undefined;
      default:
        return this.addEvent(record);
    }
  }

  /** Writes what is left and waits for every write. */
  async finish(): Promise<void> {
    await this.flushCatalog();
    for (const type of ["redirect", "watch", "search"] as const) await this.flushEvents(type);
    await this.writing;
  }

  /** The event, keyed, goes into its batch (encoded for COPY at once). */
  private addEvent(record: EventRecord): Promise<void> | undefined {
    const batch = this.events[record.type];
    batch.add({ key: eventKey(record), record });
    return batch.count >= EVENT_BATCH ? this.flushEvents(record.type) : undefined;
  }

  private reject(error: LineError): undefined {
    this.rejected += 1;
    if (this.errors.length < MAX_REPORTED) this.errors.push(error);
    this.onReject(error);
    if (this.rejected > this.maxErrors) throw new ImportAborted(this.rejected, this.maxErrors, this.errors);
    return undefined;
  }

  private flushCatalog(): Promise<void> {
    const consoles = this.consoles;
    const games = this.games;
    if (consoles.length === 0 && games.length === 0) return Promise.resolve();
    this.consoles = [];
    this.games = [];
    return this.enqueue(async () => {
      await upsertConsoles(this.client, consoles);
      await upsertGames(this.client, games, this.importedAt);
    });
  }

  private flushEvents(type: EventType): Promise<void> {
    const batch = this.events[type];
    if (batch.count === 0) return Promise.resolve();
    batch.close();
    this.events[type] = new EventBatch(type, this.copy, this.pool);
    // The catalog lines read so far go first: writes keep the file's order.
    const catalog = this.flushCatalog();
    return catalog.then(() =>
      this.enqueue(async () => {
        const written = await writeEvents(this.client, batch, { copy: this.copy });
        this.inserted += written.inserted;
        this.duplicates += batch.count - written.inserted;
        this.removalsRecorded += written.updated;
        // Written (the COPY's server answered): its blocks are free for the next batches.
        this.pool.release(batch.buffers);
      }),
    );
  }

  /** Starts a write once the previous one is done; its failure surfaces at the next wait. */
  private async enqueue(write: () => Promise<void>): Promise<void> {
    await this.writing;
    const started = write();
    started.catch(() => {});
    this.writing = started;
  }
}

/**
 * Loads NDJSON lines in one transaction (docs/data-format.md): valid lines are stored, each event
 * once however often it is loaded (its key: event-key.ts); bad lines are rejected with their number
 * and reason, and past `maxErrors` of them the file is rolled back whole, as on any other failure.
 * Events go in through COPY on PostgreSQL (batched INSERTs on the embedded database); the days they
 * fall on are left marked for the next rollup, which rebuilds their daily cells before reading.
 */
export const importChunks = async (
  db: Database,
  chunks: AsyncIterable<readonly string[]>,
  options: ImportOptions = {},
): Promise<ImportReport> => {
  const started = performance.now();
  const onProgress = options.onProgress ?? (() => {});
  const client = await db.pool.connect();
  let lineNumber = 0;
  try {
    await client.query("BEGIN");
    const { rows } = await client.query<{ id: number }>("SELECT id FROM games");
    const knownGames = new Set(rows.map((r) => r.id));
    const startedAt = new Date((options.clock ?? systemClock).now());
    const admission: Admission = { today: dayOf(startedAt), isKnownGame: (id) => knownGames.has(id) };
    const loader = new Loader(
      client,
      !db.embedded,
      admission,
      knownGames,
      options.maxErrors ?? DEFAULT_MAX_ERRORS,
      options.onReject ?? (() => {}),
      startedAt.toISOString(),
    );
    let nextProgress = PROGRESS_EVERY;
    for await (const chunk of chunks) {
      for (const text of chunk) {
        lineNumber += 1;
        const wait = loader.take(text, lineNumber);
        if (wait) await wait;
      }
      if (lineNumber >= nextProgress) {
        onProgress(lineNumber);
        nextProgress = lineNumber + PROGRESS_EVERY;
      }
    }
    await loader.finish();
    // The days this file touched are now marked stale (the event tables' triggers); the next
    // rollup rebuilds their daily cells before it reads them (docs/internals/import.md, "Daily cells after an import").
    await client.query("COMMIT");
    onProgress(lineNumber);
    return {
      lines: lineNumber,
      counts: loader.counts,
      new: loader.inserted,
      duplicates: loader.duplicates,
      removalsRecorded: loader.removalsRecorded,
      rejected: loader.rejected,
      errors: loader.errors,
      durationMs: performance.now() - started,
    };
  } catch (error) {
    await client.query("ROLLBACK").catch(() => {});
    throw error;
  } finally {
    client.release();
  }
};

/** `importChunks` over single lines (the demo generator's). */
export const importLines = (
  db: Database,
  lines: AsyncIterable<string> | Iterable<string>,
  onProgress?: (lines: number) => void,
  options: Omit<ImportOptions, "onProgress"> = {},
): Promise<ImportReport> => {
  async function* single() {
    for await (const line of lines) yield [line];
  }
  return importChunks(db, single(), { ...options, onProgress });
};

/** `-` is standard input; gzip is recognised by its magic bytes, whatever the file is called. */
export const openSource = async (
  source: string,
  stdin: Readable = process.stdin,
): Promise<{ stream: Readable; totalBytes: number | null; bytesRead: () => number }> => {
  const totalBytes = source === "-" ? null : (await stat(source)).size;
  const raw = source === "-" ? stdin : createReadStream(source, { highWaterMark: 256 * 1024 });
  let bytes = 0;
  raw.on("data", (chunk: Buffer) => {
    bytes += chunk.length;
  });
  return { stream: gunzipIfCompressed(raw), totalBytes, bytesRead: () => bytes };
};

const gunzipIfCompressed = (raw: Readable): Readable => {
  const out = new PassThrough({ highWaterMark: 256 * 1024 });
  // A failure may come before the importer starts reading (a short broken gzip): kept on the
  // stream, whose reader then throws it, rather than thrown from an 'error' event nobody listens to.
  out.on("error", () => {});
  raw.on("error", (error) => out.destroy(error));
  raw.once("end", () => {
    if (!started) out.end();
  });
  let started = false;
  raw.once("data", (first: Buffer) => {
    started = true;
    let target: NodeJS.WritableStream = out;
    if (first[0] === 0x1f && first[1] === 0x8b) {
      const gunzip = createGunzip();
      gunzip.on("error", (error) => out.destroy(new Error(`not a valid gzip stream: ${error.message}`)));
      gunzip.pipe(out);
      target = gunzip;
    }
    target.write(first);
    raw.pipe(target);
  });
  return out;
};

/**
 * The lines of a UTF-8 stream, a chunk's worth at a time, read only as fast as they are taken
 * (the stream's backpressure bounds memory). `\n` or `\r\n` ends a line; a byte-order mark at the
 * start is dropped. A line is never held past MAX_LINE_LENGTH + 1 characters: a file without line
 * ends cannot fill memory, and the parser refuses the cut line as too long.
 */
export async function* lineChunks(stream: Readable): AsyncGenerator<string[]> {
  stream.setEncoding("utf8");
  let rest = "";
  let first = true;
  for await (const chunk of stream as AsyncIterable<string>) {
    const lines = (rest + chunk).split("\n");
    rest = lines.pop() ?? "";
    if (rest.length > MAX_LINE_LENGTH) rest = rest.slice(0, MAX_LINE_LENGTH + 1);
    if (first && lines.length > 0) {
      first = false;
      if (lines[0]?.startsWith("\uFEFF")) lines[0] = lines[0].slice(1);
    }
    for (let i = 0; i < lines.length; i++) {
      const line = lines[i] as string;
      if (line.endsWith("\r")) lines[i] = line.slice(0, -1);
    }
    if (lines.length > 0) yield lines;
  }
  if (rest !== "") {
    if (first && rest.startsWith("\uFEFF")) rest = rest.slice(1);
    yield [rest.endsWith("\r") ? rest.slice(0, -1) : rest];
  }
}

/** Imports one file (or `-`), reporting progress in bytes of the source as read. */
export const importFile = async (
  db: Database,
  source: string,
  onProgress: (progress: ImportProgress) => void = () => {},
  stdin?: Readable,
  options: Omit<ImportOptions, "onProgress"> = {},
): Promise<ImportReport> => {
  const { stream, totalBytes, bytesRead } = await openSource(source, stdin);
  try {
    return await importChunks(db, lineChunks(stream), {
      ...options,
      onProgress: (n) => onProgress({ lines: n, bytes: bytesRead(), totalBytes }),
    });
  } finally {
    stream.destroy();
  }
};
