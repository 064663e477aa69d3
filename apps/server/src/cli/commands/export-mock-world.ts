import { writeFile } from "node:fs/promises";
import { systemClock } from "../../clock.js";
import { exportMockWorld, snapshotDates } from "../../data/mock-world.js";
import { findSnapshot } from "../../data/snapshots.js";
import { addDays, dayOf, todayOf } from "../../domain/analytics/windows.js";
import { CliError, type CliIo, parseFlags, positiveInt } from "../io.js";
import { withAnalyticsDatabase } from "./analytics.js";

/**
 * `gmi export-mock-world [--date D] [--days N] [--out FILE]`: the catalog and the snapshots of
 * every period dated D-N+1..D (default: the latest default date, 30 days) as a mock world for
 * `installGmiMocks({ world })` (docs/internals/mock-world.md). Without --out the world is printed.
 */
export const runExportMockWorld = async (args: string[], io: CliIo): Promise<number> => {
  const flags = parseFlags(args, {
    date: { type: "string" },
    days: { type: "string" },
    out: { type: "string" },
  });
  const days = flags.days === undefined ? 30 : positiveInt("days", flags.days);
  if (
    flags.date !== undefined &&
    (!/^\d{4}-\d{2}-\d{2}$/.test(flags.date) || dayOf(`${flags.date}T00:00:00Z`) !== flags.date)
  ) {
    throw new CliError("usage", `--date must be a date written YYYY-MM-DD, got "${flags.date}"`);
  }
  const json = Boolean(flags.json);
  const summary = await withAnalyticsDatabase(
    io,
    json,
    ["export-mock-world", ...args].join(" "),
    async (ctx) => {
      const sql = ctx.db.pool;
      const end = flags.date ?? (await findSnapshot(sql, "7d", undefined, todayOf(systemClock)))?.date;
      if (end === undefined)
        throw new CliError("invalid_state", "nothing is rolled up yet: run the rollup first");
      const dates = await snapshotDates(sql, addDays(end, 1 - days), end);
      if (dates.length === 0)
        throw new CliError("not_found", `no snapshot dated ${addDays(end, 1 - days)}..${end}`);
      const world = await exportMockWorld(sql, { dates, scoring: ctx.scoring });
      const text = JSON.stringify(world);
      if (flags.out === undefined) io.stdout(`${text}\n`);
      else await writeFile(flags.out, text);
      return {
        out: flags.out ?? null,
        from: dates[0],
        to: dates.at(-1),
        snapshots: world.snapshots.length,
        games: world.catalog.games.length,
        bytes: Buffer.byteLength(text),
      };
    },
  );
  if (flags.out !== undefined) {
    io.stdout(
      json
        ? `${JSON.stringify(summary)}\n`
        : `wrote ${summary.snapshots} snapshots (${summary.from} .. ${summary.to}) and ${summary.games} games to ${summary.out} (${summary.bytes} bytes)\n`,
    );
  }
  return 0;
};
