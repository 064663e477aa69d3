import { systemClock } from "../clock.js";
import type { Database } from "../db/open.js";
import type { ScoringConfig } from "../domain/analytics/weights.js";
import type { IsoDay } from "../domain/analytics/windows.js";
import { todayOf } from "../domain/analytics/windows.js";
import { type ImportReport, importLines } from "../jobs/import.js";
import { rollupDates } from "../rollup/rollup-dates.js";
import { type DemoScale, generateDemo } from "./generate.js";

export type DemoSeed = { scale: DemoScale | number; seed: number; endDate: IsoDay; rollupDays: number };

export type SeedReport = ImportReport & { events: number; computed: IsoDay[] };

/**
 * Generates the demo marketplace into the database through the importer (the same validation and
 * loading as a customer's NDJSON) and rolls up its last `rollupDays` dates, again where they were
 * rolled up already (their events just changed).
 */
export const seedDemo = async (
  db: Database,
  scoring: ScoringConfig,
  options: DemoSeed,
  onLine: (lines: number) => void = () => {},
): Promise<SeedReport> => {
  async function* lines() {
    for (const record of generateDemo({
      endDate: options.endDate,
      seed: options.seed,
      scale: options.scale,
    })) {
      yield JSON.stringify(record);
    }
  }
  const report = await importLines(db, lines(), onLine);
  const { computed } = await rollupDates(
    db,
    { end: options.endDate, days: options.rollupDays, force: true, today: todayOf(systemClock) },
    scoring,
  );
  const events = report.counts.redirect + report.counts.watch + report.counts.search;
  return { ...report, events, computed };
};
