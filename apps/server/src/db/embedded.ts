import { mkdir } from "node:fs/promises";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { PGLiteSocketServer } from "@electric-sql/pglite-socket";

export type EmbeddedPostgres = { url: string; stop(): Promise<void> };

/**
 * PostgreSQL without a server: PGlite (Postgres compiled to WebAssembly, in this process), persisted
 * under `dataDir` and served over the Postgres wire protocol on a Unix socket. Everything else (pg,
 * Prisma's pg adapter, the migration engine) then talks to it exactly as to a real server.
 * PGlite runs one query at a time; the socket server multiplexes our few connections onto it.
 */
export const startEmbeddedPostgres = async (dataDir: string): Promise<EmbeddedPostgres> => {
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
