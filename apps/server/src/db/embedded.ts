import { mkdir } from "node:fs/promises";
import path from "node:path";
import { ConfigError } from "../config.js";

export type EmbeddedPostgres = { url: string; stop(): Promise<void> };

/**
 * PostgreSQL without a server: PGlite (Postgres compiled to WebAssembly, in this process), persisted
 * under `dataDir` and served over the Postgres wire protocol on a Unix socket. Everything else (pg,
 * Prisma's pg adapter, the migration engine) then talks to it exactly as to a real server.
 * PGlite runs one query at a time; the socket server multiplexes our few connections onto it.
 */
export const startEmbeddedPostgres = async (dataDir: string): Promise<EmbeddedPostgres> => {
  const { PGlite, PGLiteSocketServer } = await loadPglite();
  const pgDir = path.resolve(dataDir, "pglite");
  const socketDir = path.resolve(dataDir, "socket");
  await mkdir(pgDir, { recursive: true });
  await mkdir(socketDir, { recursive: true });
  const db = await PGlite.create(pgDir);
  // pg finds a Unix socket as <host dir>/.s.PGSQL.<port>.
  const port = 5432;
  const server = new PGLiteSocketServer({
    db,
    path: path.join(socketDir, `.s.PGSQL.${port}`),
    maxConnections: 16,
  });
  await server.start();
  const url = `postgresql://postgres@localhost:${port}/postgres?host=${encodeURIComponent(socketDir)}`;
  return {
    url,
    stop: async () => {
      await server.stop();
      await db.close();
    },
  };
};

/**
 * Imported only when needed: the container image leaves PGlite out (a production server always has
 * DATABASE_URL), and there its absence must read as a configuration error, not a stack trace.
 */
const loadPglite = async () => {
  try {
    const [{ PGlite }, { PGLiteSocketServer }] = await Promise.all([
      import("@electric-sql/pglite"),
      import("@electric-sql/pglite-socket"),
    ]);
    return { PGlite, PGLiteSocketServer };
  } catch (error) {
    if ((error as { code?: string }).code !== "ERR_MODULE_NOT_FOUND") throw error;
    throw new ConfigError(
      "DATABASE_URL is not set, and this installation has no embedded database (PGlite is only in the repository's development install): set DATABASE_URL to a PostgreSQL URL",
    );
  }
};
