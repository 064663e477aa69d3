import pg from "pg";
import { embeddedUrl, loadPglite, startEmbeddedPostgres } from "./embedded.js";
import { claimDataDir, type OwnerInfo, type Ownership } from "./embedded-owner.js";

export type Database = {
  /** The connection URL in use (for the embedded database, its Unix socket). */
  url: string;
  /**
   * Every query goes through this pool, in data/ modules (SQL by hand; Prisma keeps the schema and
   * the migrations). No Prisma client is built: nothing used it, and loading it cost every `gmi`
   * command and every start a sixth of a second.
   */
  pool: pg.Pool;
  /** PGlite behind a socket (ours or another process's): one session, no COPY. */
  embedded: boolean;
  /** This process owns the embedded database (a server announces its address and readiness here). */
  ownership?: Ownership;
  /** The process whose embedded database this one uses (a `gmi` command beside a running server). */
  sharedWith?: OwnerInfo;
  close(): Promise<void>;
};

export type DatabaseOptions = {
  /** PostgreSQL URL; when absent, an embedded PostgreSQL persisted under `dataDir`. */
  databaseUrl?: string;
  dataDir: string;
  poolSize?: number;
  /** A server's pool: its connections stay open while idle (`openPool`). */
  keepIdle?: boolean;
  /**
   * Who opens the embedded database. A server always owns it; a `gmi` command (`cli`, the default)
   * uses a running server's, and opens the data folder itself only when no process holds it.
   */
  role?: OwnerInfo["role"];
  /** What this process runs, told to the processes that find the database held (messages). */
  command?: string;
  /** Called while a `gmi` command waits for a server that is still starting. */
  onWait?: (owner: OwnerInfo) => void;
};

/** The embedded database is held by a process this one cannot share it with. */
export class EmbeddedDatabaseBusy extends Error {
  override name = "EmbeddedDatabaseBusy";
  constructor(
    readonly dataDir: string,
    readonly owner: OwnerInfo,
    message: string,
  ) {
    super(message);
  }
}

const busyMessage = (dataDir: string, role: OwnerInfo["role"], owner: OwnerInfo): string => {
  const where = `the embedded database under ${dataDir}`;
  if (owner.role === "server") {
    const at = owner.httpUrl ? ` at ${owner.httpUrl}` : "";
    return role === "server"
      ? `Another GMI server (pid ${owner.pid}${at}) already serves ${where}. Stop it first (kill ${owner.pid}), or start this one with another DATA_DIR or a DATABASE_URL.`
      : `The GMI server (pid ${owner.pid}) that holds ${where} has not finished starting; try again when its banner shows (or stop it: kill ${owner.pid}).`;
  }
  const next = role === "server" ? "Start the server" : "Run this command";
  return `${where[0]?.toUpperCase()}${where.slice(1)} is in use by \`${owner.command}\` (pid ${owner.pid}). ${next} when it has finished, or stop it (kill ${owner.pid}). While a server runs, every gmi command uses the server's database.`;
};

// PostgreSQL returns int8 (COUNT(*), bigint sums) as strings by default; every count we read fits
// in a double by far, so we take numbers.
pg.types.setTypeParser(pg.types.builtins.INT8, (value) => Number.parseInt(value, 10));

/**
 * The embedded server multiplexes every connection onto PGlite's single session, where a named
 * (prepared) statement of one connection collides with the same name prepared by another
 * ("prepared statement already exists": each pg client believes it has not prepared it yet).
 * There, every client sends its statements unnamed (parsed on every call): the pool's own queries
 * and those of a client checked out of it alike.
 */
class UnpreparedClient extends pg.Client {
  override query(...args: unknown[]): never {
    const [first, ...rest] = args;
    if (typeof first === "object" && first !== null && "name" in first) {
      const { name: _name, ...unnamed } = first as Record<string, unknown>;
      return (super.query as (...a: unknown[]) => never)(unnamed, ...rest);
    }
    return (super.query as (...a: unknown[]) => never)(...args);
  }
}

/**
 * A pool on `url`, as every process of ours opens one (a second pool on the same database, in a
 * test standing for another replica, too): on the embedded database, of clients that prepare
 * nothing (above); on PostgreSQL, a database that accepts no connection fails a request within
 * seconds (a 503), never hangs it. `keepIdle` (a server's pool): connections are not closed for
 * being idle. pg.Pool closes them after 10 s by default, and a connection opened again has lost its
 * prepared statements: the first second after a pause in traffic paid the connections and a parse
 * and plan of every read (bench:wide, docs/performance/2026-11-27-steady-reads.md).
 */
export const openPool = (
  url: string,
  options: { embedded: boolean; max?: number; keepIdle?: boolean },
): pg.Pool => {
  const max = options.max ?? (options.embedded ? 4 : 10);
  const pool = options.embedded
    ? new pg.Pool({ connectionString: url, max, Client: UnpreparedClient })
    : new pg.Pool({
        connectionString: url,
        max,
        ...(options.keepIdle ? { min: max } : {}),
        connectionTimeoutMillis: 5_000,
      });
  // An idle connection that the server drops (restart, failover, a test dropping its database)
  // must not crash the process: the pool discards it and the next query opens a new one.
  pool.on("error", () => {});
  return pool;
};

/** How long a `gmi` command waits for a starting server (its first start seeds the demo). */
const STARTING_WAIT_MS = 120_000;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

type Embedded = { url: string; ownership?: Ownership; sharedWith?: OwnerInfo; stop(): Promise<void> };

/**
 * The embedded database under `dataDir`: opened by this process when nobody holds it, else the
 * running server's, through its socket. Only one process ever opens the data folder.
 */
const openEmbedded = async (options: DatabaseOptions): Promise<Embedded> => {
  const role = options.role ?? "cli";
  const command = options.command ?? (role === "server" ? "the GMI server" : "a gmi command");
  await loadPglite();
  const deadline = Date.now() + STARTING_WAIT_MS;
  for (;;) {
    const claim = await claimDataDir(options.dataDir, { role, command });
    if ("owned" in claim) {
      const ownership = claim.owned;
      try {
        const postgres = await startEmbeddedPostgres(options.dataDir);
        ownership.update({ socketDir: postgres.socketDir });
        return {
          url: postgres.url,
          ownership,
          stop: async () => {
            await postgres.stop();
            await ownership.release();
          },
        };
      } catch (error) {
        await ownership.release();
        throw error;
      }
    }
    const { owner } = claim;
    if (role === "server" || owner.role !== "server") {
      throw new EmbeddedDatabaseBusy(options.dataDir, owner, busyMessage(options.dataDir, role, owner));
    }
    if (owner.state === "ready" && owner.socketDir) {
      return { url: embeddedUrl(owner.socketDir), sharedWith: owner, stop: async () => {} };
    }
    if (Date.now() > deadline) {
      throw new EmbeddedDatabaseBusy(options.dataDir, owner, busyMessage(options.dataDir, role, owner));
    }
    options.onWait?.(owner);
    await sleep(250);
  }
};

export const openDatabase = async (options: DatabaseOptions): Promise<Database> => {
  const embedded = options.databaseUrl ? undefined : await openEmbedded(options);
  const url = options.databaseUrl ?? (embedded as Embedded).url;
  const pool = openPool(url, {
    embedded: Boolean(embedded),
    keepIdle: Boolean(options.keepIdle),
    ...(options.poolSize ? { max: options.poolSize } : {}),
  });
  return {
    url,
    pool,
    embedded: Boolean(embedded),
    ...(embedded?.ownership ? { ownership: embedded.ownership } : {}),
    ...(embedded?.sharedWith ? { sharedWith: embedded.sharedWith } : {}),
    close: async () => {
      await pool.end();
      await embedded?.stop();
    },
  };
};
