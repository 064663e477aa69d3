// STUB owned by the lead (issue 3 plumbing): replace with the real `gmi migrate`.
import { loadConfig } from "../../config.js";
import { ensurePlans } from "../../data/accounts.js";
import { migrate } from "../../db/migrate.js";
import { openDatabase } from "../../db/open.js";
import type { CliIo } from "../io.js";
import { processIo } from "../io.js";

/** Applies pending migrations and upserts the plan table; prints what it applied. */
export const runMigrate = async (args: string[], io: CliIo = processIo): Promise<number> => {
  const json = args.includes("--json");
  const config = loadConfig();
  const db = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
  try {
    const { applied } = await migrate(db.url);
    await ensurePlans(db.pool);
    io.stdout(
      json
        ? `${JSON.stringify({ applied })}\n`
        : `Applied ${applied.length} migration(s)${applied.length ? `: ${applied.join(", ")}` : ""}\n`,
    );
    return 0;
  } finally {
    await db.close();
  }
};
