import { afterAll, beforeAll } from "vitest";
import { ensurePlans } from "../../src/data/accounts.js";
import { migrate } from "../../src/db/migrate.js";
import type { Database } from "../../src/db/open.js";
import { openDatabase } from "../../src/db/open.js";
import type { TestApp } from "../helpers/app.js";
import { startTestApp } from "../helpers/app.js";
import { seedAnalytics } from "../helpers/batch.js";
import { loadFixtureCatalog } from "../helpers/catalog.js";
import { canRunPostgres, startPostgres } from "./processes.js";

export type SeededPostgresApp = {
  server: Awaited<ReturnType<typeof startPostgres>>;
  db: Database;
  t: TestApp;
};

/**
 * For a fault test file: a PostgreSQL of its own (processes.ts), migrated, with the plans, the
 * fixture catalog and its analytics, and the app on it, started before its tests and closed after
 * them. The handles are filled in by `beforeAll`; nothing starts where PostgreSQL cannot run.
 */
export const seededPostgresApp = (appOptions: Parameters<typeof startTestApp>[1] = {}): SeededPostgresApp => {
  const handles = {} as SeededPostgresApp;
  beforeAll(async () => {
    if (!canRunPostgres) return;
    handles.server = await startPostgres();
    await migrate(handles.server.url);
    handles.db = await openDatabase({ databaseUrl: handles.server.url, dataDir: "" });
    await ensurePlans(handles.db.pool);
    await loadFixtureCatalog(handles.db.pool);
    await seedAnalytics(handles.db);
    handles.t = await startTestApp(handles.db.pool, appOptions);
  }, 120_000);
  afterAll(async () => {
    handles.server?.thaw();
    await handles.t?.close().catch(() => {});
    await handles.db?.close().catch(() => {});
    await handles.server?.close();
  }, 60_000);
  return handles;
};
