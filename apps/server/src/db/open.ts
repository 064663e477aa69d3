import { PrismaPg } from "@prisma/adapter-pg";
import pg from "pg";
import { PrismaClient } from "../generated/prisma/client.js";
import { startEmbeddedPostgres } from "./embedded.js";

export type Database = {
  /** The connection URL in use (for the embedded database, its Unix socket). */
  url: string;
  /** Raw SQL for hot paths and COPY; only data/ modules use it. */
  pool: pg.Pool;
  prisma: PrismaClient;
  embedded: boolean;
  close(): Promise<void>;
};

export type DatabaseOptions = {
  /** PostgreSQL URL; when absent, an embedded PostgreSQL persisted under `dataDir`. */
  databaseUrl?: string;
  dataDir: string;
  poolSize?: number;
};

// PostgreSQL returns int8 (COUNT(*), bigint sums) as strings by default; every count we read fits
// in a double by far, so we take numbers.
pg.types.setTypeParser(pg.types.builtins.INT8, (value) => Number.parseInt(value, 10));

/**
 * The embedded server multiplexes every connection onto PGlite's single session, where a named
 * (prepared) statement of one connection collides with the same name prepared by another
 * ("prepared statement already exists"). There, statements go unnamed: parsed on every call.
 */
class UnpreparedPool extends pg.Pool {
  override query(...args: unknown[]): never {
    const [first, ...rest] = args;
    if (typeof first === "object" && first !== null && "name" in first) {
      const { name: _name, ...unnamed } = first as Record<string, unknown>;
      return (super.query as (...a: unknown[]) => never)(unnamed, ...rest);
    }
    return (super.query as (...a: unknown[]) => never)(...args);
  }
}

export const openDatabase = async (options: DatabaseOptions): Promise<Database> => {
  const embedded = options.databaseUrl ? undefined : await startEmbeddedPostgres(options.dataDir);
  const url = options.databaseUrl ?? (embedded as NonNullable<typeof embedded>).url;
  const pool = embedded
    ? new UnpreparedPool({ connectionString: url, max: options.poolSize ?? 4 })
    : // A database that accepts no connection fails a request within seconds (a 503), never hangs it.
      new pg.Pool({ connectionString: url, max: options.poolSize ?? 10, connectionTimeoutMillis: 5_000 });
  // An idle connection that the server drops (restart, failover, a test dropping its database)
  // must not crash the process: the pool discards it and the next query opens a new one.
  pool.on("error", () => {});
  const prisma = new PrismaClient({ adapter: new PrismaPg(pool) });
  return {
    url,
    pool,
    prisma,
    embedded: Boolean(embedded),
    close: async () => {
      await prisma.$disconnect();
      await pool.end();
      await embedded?.stop();
    },
  };
};
