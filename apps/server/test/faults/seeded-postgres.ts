import { ensurePlans } from "../../src/data/accounts.js";
import { migrate } from "../../src/db/migrate.js";
import { openDatabase } from "../../src/db/open.js";
import { seedAnalytics } from "../helpers/batch.js";
import { loadFixtureCatalog } from "../helpers/catalog.js";
import { startPostgres } from "./processes.js";

/** A PostgreSQL of the test's own (processes.ts), migrated, with the plans, the fixture catalog and its analytics. */
export const startSeededPostgres = async () => {
  const server = await startPostgres();
  await migrate(server.url);
  const db = await openDatabase({ databaseUrl: server.url, dataDir: "" });
  await ensurePlans(db.pool);
  await loadFixtureCatalog(db.pool);
  await seedAnalytics(db);
  return { server, db };
};
