import { systemClock } from "../../clock.js";
import { loadConfig, scoringOf } from "../../config.js";
import { countEvents } from "../../data/contents.js";
import type { Database } from "../../db/open.js";
import { DEMO_SCALES, type DemoScale, demoEventCount } from "../../demo/generate.js";
import { seedDemo } from "../../demo/seed.js";
import { describeRuns } from "../../domain/analytics/day-runs.js";
import type { ScoringConfig } from "../../domain/analytics/weights.js";
import { addDays, dayOf, type IsoDay, todayOf } from "../../domain/analytics/windows.js";
import type { ImportReport } from "../../jobs/import.js";
import { FutureDateRefused, rollupDates } from "../../rollup/rollup-dates.js";
import { openCliDatabase } from "../database.js";
import { CliError, type CliIo, parseFlags, positiveInt } from "../io.js";
import { progressBar } from "../progress.js";
import { importCommand } from "./import.js";

/** `cli`: how the operator runs gmi (GMI_CLI_NAME), for the commands messages name. */
type Context = { db: Database; scoring: ScoringConfig; io: CliIo; json: boolean; cli: string };

/** Runs a data command on the configured database; `command` is what it runs, for messages. */
export const withAnalyticsDatabase = async <T>(
  io: CliIo,
  json: boolean,
  command: string,
  work: (ctx: Context) => Promise<T>,
) => {
  const config = loadConfig();
  const db = await openCliDatabase(config, `${config.cliName} ${command}`, io);
  try {
    return await work({ db, scoring: scoringOf(config.analytics), io, json, cli: config.cliName });
  } finally {
    await db.close();
  }
};

const isoDate = (flag: string, value: string | undefined): IsoDay | undefined => {
  if (value === undefined) return undefined;
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value) || dayOf(`${value}T00:00:00Z`) !== value) {
    throw new CliError("usage", `--${flag} must be a date written YYYY-MM-DD, got "${value}"`);
  }
  return value;
};

const summary = (report: ImportReport) => {
  const events = report.counts.redirect + report.counts.watch + report.counts.search;
  const rate = Math.round(events / Math.max(0.001, report.durationMs / 1000));
  return { ...report, events, events_per_second: rate, durationMs: Math.round(report.durationMs) };
};

/** The days in a message: one date, or how many and their first and last. */
const datesInWords = (dates: readonly IsoDay[]) =>
  dates.length === 1 ? dates[0] : `${dates.length} dates (${dates[0]} .. ${dates.at(-1)})`;

/** `gmi rollup [--date D] [--days N] [--force] [--allow-empty]`. */
export const rollupCommand = async (args: string[], ctx: Context) => {
  const flags = parseFlags(args, {
    date: { type: "string" },
    days: { type: "string" },
    force: { type: "boolean" },
    "allow-empty": { type: "boolean" },
  });
  const days = flags.days === undefined ? 1 : positiveInt("days", flags.days);
  const today = todayOf(systemClock);
  const requested = isoDate("date", flags.date);
  if (requested !== undefined && requested > today)
    throw new CliError("usage", `--date ${new FutureDateRefused(requested, today).message}`);
  const bar = progressBar("rollup");
  const report = await rollupDates(
    ctx.db,
    {
      ...(requested ? { end: requested } : {}),
      days,
      force: Boolean(flags.force),
      today,
      allowEmpty: Boolean(flags["allow-empty"]),
    },
    ctx.scoring,
    (p) => {
      bar.update(p.index, p.total, "dates");
      if (!ctx.json)
        ctx.io.stdout(`rolled up ${p.date} in ${Math.round(p.durationMs)} ms (${p.index}/${p.total})\n`);
    },
  );
  bar.done();
  const { computed, upToDate, withoutEvents, eventRuns } = report;
  if (eventRuns.length === 0 && computed.length === 0) {
    throw new CliError(
      "invalid_state",
      `nothing to roll up: the database has no events; load some with \`${ctx.cli} import FILE\` (or \`${ctx.cli} seed --demo\`)`,
    );
  }
  if (withoutEvents.length > 0) {
    const [its, it] = withoutEvents.length === 1 ? ["its", "it"] : ["their", "them"];
    const why =
      `${datesInWords(withoutEvents)}: no event in ${its} 30-day window, so no snapshot of ${it} ` +
      `(events exist on ${describeRuns(eventRuns)}); to write ${it} anyway (read only by date, never a default): add --allow-empty`;
    // Nothing else asked for: a refusal. Beside dates rolled up or up to date: a note.
    if (computed.length + upToDate.length === 0) throw new CliError("invalid_state", `refused: ${why}`);
    if (!ctx.json) ctx.io.stdout(`skipped ${why}\n`);
  }
  if (!ctx.json && upToDate.length > 0) {
    const again = `${ctx.cli} rollup${requested ? ` --date ${requested}` : ""}${flags.days ? ` --days ${days}` : ""} --force`;
    ctx.io.stdout(
      `${computed.length === 0 ? "nothing to roll up: " : ""}${datesInWords(upToDate)} already rolled up, skipped; to compute again (after late events): ${again}\n`,
    );
  }
  return { computed, skipped: upToDate, without_events: withoutEvents };
};

const parseScale = (value: string | undefined): DemoScale | number => {
  if (value === undefined) return "small";
  if (value in DEMO_SCALES) return value as DemoScale;
  return positiveInt("scale", value);
};

/** `gmi seed --demo [--scale small|large|N] [--seed S] [--end-date D] [--rollup-days N]`. */
export const seedCommand = async (args: string[], ctx: Context) => {
  const flags = parseFlags(args, {
    demo: { type: "boolean" },
    scale: { type: "string" },
    seed: { type: "string" },
    "end-date": { type: "string" },
    "rollup-days": { type: "string" },
    add: { type: "boolean" },
  });
  if (!flags.demo)
    throw new CliError("usage", "seed needs --demo (the synthetic marketplace is the only seed)");
  const scale = parseScale(flags.scale);
  const total = demoEventCount(scale);
  const existing = await countEvents(ctx.db.pool);
  const held = existing.redirect + existing.watch + existing.search;
  if (held > 0 && !flags.add) {
    throw new CliError(
      "invalid_state",
      `the database already holds ${held.toLocaleString("en")} events; seeding would add ${total.toLocaleString("en")} demo events (and demo games) to them. ` +
        `To add them anyway, run again with --add (its dates are then rolled up again); for a clean demo, use an empty database (another DATA_DIR).`,
    );
  }
  if (!ctx.json) {
    ctx.io.stdout(
      `seeding ${total.toLocaleString("en")} demo events${held > 0 ? ` on top of the ${held.toLocaleString("en")} already there (--add)` : ""}...\n`,
    );
  }
  const bar = progressBar("seeding");
  const seeded = await seedDemo(
    ctx.db,
    ctx.scoring,
    {
      scale,
      seed: flags.seed === undefined ? 1 : positiveInt("seed", flags.seed),
      endDate: isoDate("end-date", flags["end-date"]) ?? addDays(dayOf(new Date()), -1),
      rollupDays: flags["rollup-days"] === undefined ? 30 : positiveInt("rollup-days", flags["rollup-days"]),
    },
    (n) => bar.update(n, null, "lines"),
  );
  bar.done();
  const result = { ...summary(seeded), computed: seeded.computed };
  if (!ctx.json) {
    ctx.io.stdout(
      `seeded ${result.events} events (${result.events_per_second} events/s); rolled up ${result.computed.length} dates\n`,
    );
  }
  return result;
};

export const ANALYTICS_COMMANDS = {
  import: importCommand,
  rollup: rollupCommand,
  seed: seedCommand,
} as const;

/** Entry for the dispatcher: runs one analytics command with its own database and error report. */
export const runAnalyticsCommand = async (
  name: keyof typeof ANALYTICS_COMMANDS,
  args: string[],
  io: CliIo,
) => {
  const json = args.includes("--json");
  const result = await withAnalyticsDatabase<unknown>(io, json, [name, ...args].join(" "), (ctx) =>
    ANALYTICS_COMMANDS[name](args, ctx),
  );
  if (json) io.stdout(`${JSON.stringify(result)}\n`);
  return 0;
};

export const isAnalyticsCommand = (name: string): name is keyof typeof ANALYTICS_COMMANDS =>
  Object.hasOwn(ANALYTICS_COMMANDS, name);
