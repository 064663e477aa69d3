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

export const openDatabase = async (options: DatabaseOptions): Promise<Database> => {
  const embedded = options.databaseUrl ? undefined : await startEmbeddedPostgres(options.dataDir);
  const url = options.databaseUrl ?? (embedded as NonNullable<typeof embedded>).url;
  const pool = new pg.Pool({ connectionString: url, max: options.poolSize ?? (embedded ? 4 : 10) });
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
