import type { Config } from "../config.js";
import { ensurePlans } from "../data/accounts.js";
import { migrate, pendingMigrations } from "../db/migrate.js";
import { type Database, EmbeddedDatabaseBusy, openDatabase } from "../db/open.js";
import { CliError, type CliIo } from "./io.js";

/**
 * The database of a command: the server's (DATABASE_URL, else the embedded one under DATA_DIR).
 * Beside a running server on the embedded database, the command uses that server's (through its
 * socket); with no server it opens the data folder itself and migrates it, as the server would. A
 * real database must be migrated already (`gmi migrate`).
 */
export const openCliDatabase = async (config: Config, command: string, io: CliIo): Promise<Database> => {
  let waiting = false;
  let db: Database;
  try {
    db = await openDatabase({
      databaseUrl: config.databaseUrl,
      dataDir: config.dataDir,
      role: "cli",
      command,
      onWait: (owner) => {
        if (!waiting) io.stderr(`waiting for the GMI server (pid ${owner.pid}) to finish starting...\n`);
        waiting = true;
      },
    });
  } catch (error) {
    if (error instanceof EmbeddedDatabaseBusy) throw new CliError("invalid_state", error.message);
    throw error;
  }
  try {
    const pending = await pendingMigrations(db.url);
    if (pending.length > 0 && db.ownership) await migrate(db.url);
    else if (pending.length > 0 && db.sharedWith) {
      throw new CliError(
        "invalid_state",
        `the running GMI server (pid ${db.sharedWith.pid}) predates ${pending.length} migration(s) of this version: restart it, then run the command again`,
      );
    } else if (pending.length > 0) {
      throw new CliError(
        "invalid_state",
        `the database has ${pending.length} pending migration(s): run \`${config.cliName} migrate\` first`,
      );
    }
    await ensurePlans(db.pool);
  } catch (error) {
    await db.close();
    throw error;
  }
  return db;
};
