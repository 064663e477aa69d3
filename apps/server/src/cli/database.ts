import type { Config } from "../config.js";
import { ensurePlans } from "../data/accounts.js";
import { migrate, pendingMigrations } from "../db/migrate.js";
import { type Database, openDatabase } from "../db/open.js";
import { CliError } from "./io.js";

/**
 * The database of the CLI: the server's (DATABASE_URL, else the embedded one under DATA_DIR). The
 * embedded one is migrated on the spot, as the server does; a real one must be migrated already.
 */
export const openCliDatabase = async (config: Config): Promise<Database> => {
  const db = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
  try {
    if (db.embedded) await migrate(db.url);
    else if ((await pendingMigrations(db.url)).length) {
      throw new CliError(
        "invalid_state",
        "the database has pending migrations: run `pnpm gmi migrate` first",
      );
    }
    await ensurePlans(db.pool);
  } catch (error) {
    await db.close();
    throw error;
  }
  return db;
};
