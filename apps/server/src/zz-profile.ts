import { scoringOf } from "./analytics/scoring.js";
import { loadConfig } from "./config.js";
import { migrate, pendingMigrations } from "./db/migrate.js";
import { openDatabase } from "./db/open.js";
import { generateDemo } from "./domain/demo/generate.js";
import { importLines } from "./jobs/import.js";
import { rollupDates } from "./jobs/rollup.js";

const t0 = performance.now();
const lap = (what: string) => {
  const c = process.cpuUsage();
  console.log(what, Math.round(performance.now() - t0), "cpu", Math.round((c.user + c.system) / 1000));
};
const config = loadConfig();
lap("config");
const db = await openDatabase({ dataDir: process.env.DATA_DIR ?? "/tmp/x", databaseUrl: undefined });
lap("pglite open");
console.log(await pendingMigrations(db.url));
lap("pending");
await migrate(db.url);
lap("migrate");
const n = Number(process.env.N ?? 50000);
async function* lines() {
  for (const r of generateDemo({ endDate: "2026-11-24", seed: 1, scale: n })) yield JSON.stringify(r);
}
await importLines(db, lines(), () => {});
lap("import");
const days = Number(process.env.DAYS ?? 7);
await rollupDates(db, { end: "2026-11-24", days, force: false }, scoringOf(config.analytics), (p) =>
  lap(`rollup ${p.date} ${Math.round(p.durationMs)}`),
);
lap("rollup");
await db.close();
lap("close");
process.exit(0);
