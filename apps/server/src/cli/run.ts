import type { Clock } from "../clock.js";
import { systemClock } from "../clock.js";
import { cliNameFrom, loadConfig } from "../config.js";
import type { Sql } from "../data/sql.js";
import {
  clientsCreate,
  clientsSetStatus,
  orgsCreate,
  orgsList,
  orgsSetStatus,
  plansList,
} from "./commands/accounts.js";
import { keysCreate, keysList, keysRevoke } from "./commands/keys.js";
import { openCliDatabase } from "./database.js";
import type { CliIo, CommandResult } from "./io.js";
import { CliError, processIo } from "./io.js";

export type CliDatabase = { pool: Sql; close(): Promise<void> };
export type CliDeps = { io?: CliIo; clock?: Clock; openDatabase?: () => Promise<CliDatabase> };

type Command = (sql: Sql, args: string[], now: number) => Promise<CommandResult>;

const COMMANDS: Record<string, Command> = {
  "orgs create": orgsCreate,
  "orgs list": orgsList,
  "orgs set-status": orgsSetStatus,
  "clients create": clientsCreate,
  "clients set-status": clientsSetStatus,
  "keys create": keysCreate,
  "keys revoke": keysRevoke,
  "keys list": keysList,
  "plans list": plansList,
};

/** Data commands: loaded only when asked for (the importer and the rollup weigh most of start-up). */
const DATA_COMMANDS = new Set(["import", "rollup", "seed"]);

/** `gmi help`; `cli` is how the operator runs gmi here (GMI_CLI_NAME). */
export const usage = (cli: string) => `Usage: ${cli} <command> [flags] [--json]

  migrate                                       apply pending database migrations
  orgs create --name N --plan free|starter|pro|enterprise
  orgs list                                     every organization, its plan, status, clients and keys
  orgs set-status --id ID --status active|suspended
  clients create --org ID --name N
  clients set-status --id ID --status active|suspended
  keys create --org ID [--client ID] --scopes a,b,c [--name N] [--expires-in DAYS]
  keys revoke --id ID
  keys list --org ID                            each key: id, last four, name, scopes, created, expiry,
                                                last used (to the minute), revoked
  plans list
  import [--max-errors N] FILE [FILE...]        load NDJSON events and catalog lines (- = stdin, .gz ok);
                                                events already stored are skipped (docs/data-format.md)
  rollup [--date YYYY-MM-DD] [--days N] [--force] [--allow-empty]
                                                compute the snapshots of N dates ending at --date
                                                (a date with no event in its 30 days: --allow-empty)
  seed --demo [--scale small|large|N] [--seed S] [--end-date YYYY-MM-DD] [--rollup-days N] [--add]
                                                generate the demo marketplace and roll it up
                                                (--add: into a database that already has events)
  export-mock-world [--date YYYY-MM-DD] [--days N] [--out FILE]
                                                the catalog and the snapshots of N dates (default 30)
                                                ending at --date (default: the latest) as a mock world
                                                for @gmi/sdk/msw's installGmiMocks({ world })

With --json every command prints exactly one JSON object on stdout (errors: {"error":{...}}).
Without DATABASE_URL, commands use the embedded database under DATA_DIR: the running server's
when one is started, else they open it themselves.
`;

/** Runs one command; returns the exit code. Never throws: every failure is reported on `io`. */
export const runCli = async (argv: string[], deps: CliDeps = {}): Promise<number> => {
  const io = deps.io ?? processIo;
  const cli = cliNameFrom();
  const json = argv.includes("--json");
  const [group = "", action = "", ...rest] = argv;
  if (group === "" || group === "help" || group === "--help" || group === "-h") {
    io.stdout(usage(cli));
    return group === "" ? 1 : 0;
  }
  try {
    if (group === "migrate")
      return await (await import("./commands/migrate.js")).runMigrate(argv.slice(1), io);
    if (group === "export-mock-world") {
      const { runExportMockWorld } = await import("./commands/export-mock-world.js");
      return await runExportMockWorld(argv.slice(1), io);
    }
    if (DATA_COMMANDS.has(group)) {
      const { runAnalyticsCommand } = await import("./commands/analytics.js");
      return await runAnalyticsCommand(group as "import" | "rollup" | "seed", argv.slice(1), io);
    }
    const command = COMMANDS[`${group} ${action}`];
    if (!command)
      throw new CliError("usage", `unknown command "${[group, action].join(" ").trim()}"; see ${cli} help`);
    const db = await (
      deps.openDatabase ?? (() => openCliDatabase(loadConfig(), `${cli} ${argv.join(" ")}`, io))
    )();
    try {
      const result = await command(db.pool, rest, (deps.clock ?? systemClock).now());
      io.stdout(json ? `${JSON.stringify(result.json)}\n` : `${result.text.join("\n")}\n`);
      return 0;
    } finally {
      await db.close();
    }
  } catch (error) {
    const known = error instanceof CliError;
    const code = known ? error.code : "internal";
    const message = error instanceof Error ? error.message : String(error);
    if (json) io.stdout(`${JSON.stringify({ error: { code, message } })}\n`);
    else io.stderr(`gmi: ${message}\n`);
    return known && code === "usage" ? 2 : 1;
  }
};
