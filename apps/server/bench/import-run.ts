/**
 * One timed `gmi import` of a file, in a process of its own so its peak RSS is the importer's
 * alone: `tsx bench/import-run.ts DATABASE_URL FILE` prints one JSON line with the report, the
 * time, the process's peak RSS and CPU, the database backends' CPU, and then the time of the daily
 * cell rebuild the next rollup starts with (bench/import.ts runs it).
 */

import { openDatabase } from "../src/db/open.js";
import { importFile } from "../src/jobs/import.js";
import { refreshCells } from "../src/rollup/event-cells.js";
import { backendCpuMs, databaseBackends } from "./backend-cpu.js";

const [url, file] = process.argv.slice(2);
if (!url || !file) throw new Error("usage: import-run.ts DATABASE_URL FILE");
const db = await openDatabase({ databaseUrl: url, dataDir: "", poolSize: 2 });
try {
  const cpuBefore = process.cpuUsage();
  const started = performance.now();
  const report = await importFile(db, file);
  const ms = performance.now() - started;
  const cpu = process.cpuUsage(cpuBefore);
  const backends = await databaseBackends(db.pool);
  const serverCpuMs = backendCpuMs(backends);
  const cellsStarted = performance.now();
  await refreshCells(db.pool);
  const cellsMs = performance.now() - cellsStarted;
  const { errors: _errors, ...rest } = report;
  const result = {
    ...rest,
    ms,
    cellsMs,
    peakRssMb: process.resourceUsage().maxRSS / 1024,
    nodeCpuMs: (cpu.user + cpu.system) / 1000,
    serverCpuMs,
    // The rebuild may take another connection of the pool: every backend of the database, again.
    cellsServerCpuMs:
      backendCpuMs([...new Set([...backends, ...(await databaseBackends(db.pool))])]) - serverCpuMs,
  };
  process.stdout.write(`${JSON.stringify(result)}\n`);
} finally {
  await db.close();
}
