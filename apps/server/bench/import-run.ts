/**
 * One timed `gmi import` of a file, in a process of its own so its peak RSS is the importer's
 * alone: `tsx bench/import-run.ts DATABASE_URL FILE` prints one JSON line with the report, the
 * time and the process's peak RSS (bench/import.ts runs it).
 */
import { openDatabase } from "../src/db/open.js";
import { importFile } from "../src/jobs/import.js";

const [url, file] = process.argv.slice(2);
if (!url || !file) throw new Error("usage: import-run.ts DATABASE_URL FILE");
const db = await openDatabase({ databaseUrl: url, dataDir: "", poolSize: 2 });
try {
  const started = performance.now();
  const report = await importFile(db, file);
  const ms = performance.now() - started;
  const { errors: _errors, ...rest } = report;
  process.stdout.write(
    `${JSON.stringify({ ...rest, ms, peakRssMb: process.resourceUsage().maxRSS / 1024, cpuMs: (process.cpuUsage().user + process.cpuUsage().system) / 1000 })}\n`,
  );
} finally {
  await db.close();
}
