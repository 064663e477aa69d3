import type { Clock } from "../clock.js";
import { systemClock } from "../clock.js";
import { loadConfig } from "../config.js";
import type { Sql } from "../data/sql.js";
import {
  clientsCreate,
  clientsSetStatus,
  orgsCreate,
  orgsSetStatus,
  plansList,
} from "./commands/accounts.js";
import { isAnalyticsCommand, runAnalyticsCommand } from "./commands/analytics.js";
import { keysCreate, keysList, keysRevoke } from "./commands/keys.js";
import { runMigrate } from "./commands/migrate.js";
import { openCliDatabase } from "./database.js";
import type { CliIo, CommandResult } from "./io.js";
import { CliError, processIo } from "./io.js";

export type CliDatabase = { pool: Sql; close(): Promise<void> };
export type CliDeps = { io?: CliIo; clock?: Clock; openDatabase?: () => Promise<CliDatabase> };

type Command = (sql: Sql, args: string[], now: number) => Promise<CommandResult>;

const COMMANDS: Record<string, Command> = {
  "orgs create": orgsCreate,
  "orgs set-status": orgsSetStatus,
  "clients create": clientsCreate,
  "clients set-status": clientsSetStatus,
  "keys create": keysCreate,
  "keys revoke": keysRevoke,
  "keys list": keysList,
  "plans list": plansList,
};

export const USAGE = `Usage: pnpm gmi <command> [flags] [--json]

  migrate                                       apply pending database migrations
  orgs create --name N --plan free|starter|pro|enterprise
  orgs set-status --id ID --status active|suspended
  clients create --org ID --name N
  clients set-status --id ID --status active|suspended
  keys create --org ID [--client ID] --scopes a,b,c [--name N] [--expires-in DAYS]
  keys revoke --id ID
  keys list --org ID
  plans list
  import [--max-errors N] FILE [FILE...]        load NDJSON events and catalog lines (- = stdin, .gz ok);
                                                events already stored are skipped (docs/data-format.md)
  rollup [--date YYYY-MM-DD] [--days N] [--force]
                                                compute the snapshots of N dates ending at --date
  seed --demo [--scale small|large|N] [--seed S] [--end-date YYYY-MM-DD] [--rollup-days N]
                                                generate the demo marketplace and roll it up

With --json every command prints exactly one JSON object on stdout (errors: {"error":{...}}).
`;

/** The configured database, ready for a command (cli/database.ts). */
const defaultDatabase = (): Promise<CliDatabase> => openCliDatabase(loadConfig());

/** Runs one command; returns the exit code. Never throws: every failure is reported on `io`. */
export const runCli = async (argv: string[], deps: CliDeps = {}): Promise<number> => {
  const io = deps.io ?? processIo;
  const json = argv.includes("--json");
  const [group = "", action = "", ...rest] = argv;
  if (group === "" || group === "help" || group === "--help" || group === "-h") {
    io.stdout(USAGE);
    return group === "" ? 1 : 0;
  }
  if (group === "migrate") return runMigrate(argv.slice(1), io);
  try {
    if (isAnalyticsCommand(group)) return await runAnalyticsCommand(group, argv.slice(1), io);
    const command = COMMANDS[`${group} ${action}`];
    if (!command)
      throw new CliError("usage", `unknown command "${[group, action].join(" ").trim()}"; see pnpm gmi help`);
    const db = await (deps.openDatabase ?? defaultDatabase)();
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
