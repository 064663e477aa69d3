import { mkdir, unlink } from "node:fs/promises";
import path from "node:path";
import { ConfigError } from "../config.js";

export type EmbeddedPostgres = { url: string; socketDir: string; stop(): Promise<void> };

// pg finds a Unix socket as <host dir>/.s.PGSQL.<port>.
const PORT = 5432;

/** The connection URL of the embedded database served in `socketDir` (by this process or another). */
export const embeddedUrl = (socketDir: string) =>
  `postgresql://postgres@localhost:${PORT}/postgres?host=${encodeURIComponent(socketDir)}`;

/**
 * PostgreSQL without a server: PGlite (Postgres compiled to WebAssembly, in this process), persisted
 * under `dataDir` and served over the Postgres wire protocol on a Unix socket. Everything else (pg,
 * Prisma's pg adapter, the migration engine, other processes' `gmi` commands) then talks to it
 * exactly as to a real server. PGlite runs one query at a time; the socket server multiplexes the
 * connections onto it, keeping a transaction's statements together.
 *
 * Only the process that claimed the data folder (embedded-owner.ts) may call this: a socket file
 * found here is then the leftover of a killed owner, and is removed.
 */
export const startEmbeddedPostgres = async (dataDir: string): Promise<EmbeddedPostgres> => {
  const { PGlite, PGLiteSocketServer } = await loadPglite();
  const pgDir = path.resolve(dataDir, "pglite");
  const socketDir = path.resolve(dataDir, "socket");
  await mkdir(pgDir, { recursive: true });
  await mkdir(socketDir, { recursive: true });
  const socketPath = path.join(socketDir, `.s.PGSQL.${PORT}`);
  await unlink(socketPath).catch(() => {});
  const db = await PGlite.create(pgDir);
  const server = new PGLiteSocketServer({ db, path: socketPath, maxConnections: 16 });
  try {
    await server.start();
  } catch (error) {
    await db.close();
    throw error;
  }
  return {
    url: embeddedUrl(socketDir),
    socketDir,
    stop: async () => {
      await server.stop();
      await db.close();
    },
  };
};

/**
 * Imported only when needed: the container image leaves PGlite out (a production server always has
 * DATABASE_URL), and there its absence must read as a configuration error, not a stack trace. Also
 * called before anything is written under DATA_DIR (open.ts), which the image's root cannot take.
 */
export const loadPglite = async () => {
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
