/**
 * `pnpm bench:import [--events N] [--rounds R] [--raw-cells] [--skip-reimport]`: the importer against a
 * raw COPY of the same rows.
 *
 * Generates the demo marketplace as an NDJSON file (N events, default 1,000,000, over its ~2,000
 * games and 90 days; cached in the temp folder by size), and the same events as COPY text files,
 * one per event table, with exactly the rows the importer stores (keys included). Then, per round:
 *
 * - raw COPY: `COPY ... FROM STDIN` of the three files into the empty event tables of a migrated
 *   database whose catalog is already loaded: the same tables, indexes and triggers (the unique key
 *   index, and the statement triggers that mark changed days), as `\copy` would load them;
 * - `gmi import` of the NDJSON file into another such database, in a process of its own (its peak
 *   RSS is the importer's): reading and gunzip-sniffing the file, validating every line, keying
 *   every event, checking dates and games, COPY with the duplicate check, in one transaction.
 *   Then, apart, the rebuild of the daily cells of the loaded days that the next rollup starts with
 *   (the importer leaves those days marked, as the raw COPY's triggers do): the ratio is shown
 *   without it and with it.
 *
 * Besides wall times, the CPU each side used: PostgreSQL's backends (from /proc, the server being
 * local) and the importer's Node process. On a shared machine wall times swing with the load; CPU
 * does not, and with two cores the importer's Node work runs beside the server's.
 *
 * Between rounds both databases are emptied (TRUNCATE) and vacuumed, off the clock. The ratio is
 * raw COPY time / import time (goal: at least 0.7); medians over rounds. A last re-import of the same
 * file shows the idempotent path (every event a duplicate).
 *
 * Env: BENCH_DATABASE_URL or TEST_DATABASE_URL (an admin URL; the bench creates and drops its own
 * databases), BENCH_KEEP=1 to keep them.
 */
import { execFile } from "node:child_process";
import { createHash } from "node:crypto";
import { once } from "node:events";
import { createReadStream, createWriteStream, existsSync } from "node:fs";
import { stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { pipeline } from "node:stream/promises";
import { fileURLToPath } from "node:url";
import { parseArgs, promisify } from "node:util";
import pg from "pg";
import { from as copyFrom } from "pg-copy-streams";
import { EVENT_TABLES, type EventRecord } from "../src/data/import-events.js";
import { copyLine } from "../src/db/copy/bulk-insert.js";
import { migrate } from "../src/db/migrate.js";
import { eventKey } from "../src/domain/import/event-key.js";
import { parseLine } from "../src/domain/import/parse-line.js";
import { lineChunks } from "../src/jobs/import.js";
import { refreshCells } from "../src/rollup/event-cells.js";
import { adminUrl, createBenchDatabase } from "./admin.js";
import { backendCpuMs } from "./backend-cpu.js";
import { writeDemoFile } from "./import-file.js";

const { values } = parseArgs({
  options: {
    events: { type: "string" },
    rounds: { type: "string" },
    /** Also time the cell rebuild the raw COPY's marks call for (the same days, the same rebuild). */
    "raw-cells": { type: "boolean" },
    /** Skip the last re-import of the whole file (at 10M events it is as long as the first). */
    "skip-reimport": { type: "boolean" },
  },
});
const events = Number(values.events ?? 1_000_000);
const rounds = Number(values.rounds ?? (events > 2_000_000 ? 1 : 3));
/** The demo's last day: before today, so the importer's future-date check passes every event. */
const END = "2026-11-20";
const here = path.dirname(fileURLToPath(import.meta.url));
const EVENT_TABLE_NAMES = ["redirect_events", "watch_events", "search_events"];
const CELL_TABLES = [
  "redirect_day_cells",
  "search_day_cells",
  "search_condition_day_cells",
  "watch_day_cells",
  "event_cell_dirty",
  "event_cell_rebuilds",
];

/** The middle value; of an even count, the mean of the two middle ones. */
const median = (xs: number[]) => {
  const sorted = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? (sorted[mid] ?? 0) : ((sorted[mid - 1] ?? 0) + (sorted[mid] ?? 0)) / 2;
};
const mb = (bytes: number) => `${(bytes / 1e6).toFixed(0)} MB`;

const COLUMNS = Object.fromEntries(
  Object.values(EVENT_TABLES).map((t) => [t.name, t.columns.map((c) => `"${c.name}"`).join(", ")]),
);

/** The NDJSON file, and the same events as one COPY text file per table (written once, cached). */
const prepareFiles = async () => {
  // Named by the tables' column lists too: files cached before a column moved would not load.
  const layout = createHash("sha256").update(JSON.stringify(COLUMNS)).digest("hex").slice(0, 8);
  const base = path.join(tmpdir(), `gmi-bench-import-${events}-${layout}`);
  const ndjson = `${base}.ndjson`;
  const copies = Object.fromEntries(EVENT_TABLE_NAMES.map((t) => [t, `${base}.${t}.tsv`]));
  const catalog = `${base}.catalog.ndjson`;
  if (![ndjson, catalog, ...Object.values(copies)].every((f) => existsSync(f))) {
    process.stdout.write(`generating ${events.toLocaleString("en")} events...\n`);
    await writeDemoFile(ndjson, events, END);
    const outs = Object.fromEntries(
      EVENT_TABLE_NAMES.map((t) => [t, createWriteStream(copies[t] as string)]),
    );
    const catalogOut = createWriteStream(catalog);
    let n = 0;
    const seen = new Set<number>();
    for await (const chunk of lineChunks(createReadStream(ndjson))) {
      const blocks: Record<string, string> = {};
      let catalogBlock = "";
      for (const text of chunk) {
        n += 1;
        const parsed = parseLine(text, n);
        if (parsed.kind !== "record") continue;
        const record = parsed.record;
        if (record.type === "console" || record.type === "game") {
          catalogBlock += `${text}\n`;
          continue;
        }
        const table = EVENT_TABLES[record.type];
        const key = eventKey(record);
        // The demo has a few identical events (one pair in 3M): stored once by the importer, and
        // in the raw files once too, or the raw COPY fails on the unique key. Keys are known by
        // their first 52 bits (a Set of 10M numbers, not strings); a false match, ~1% likely at
        // 10M events, leaves one event out of the raw files.
        const id = Number.parseInt(key.slice(0, 13), 16);
        if (seen.has(id)) continue;
        seen.add(id);
        const row = (table.values as (e: { key: string; record: EventRecord }) => unknown[])({
          key,
          record,
        });
        blocks[table.name] = (blocks[table.name] ?? "") + copyLine(row);
      }
      for (const [name, block] of Object.entries(blocks)) {
        const out = outs[name];
        if (out && !out.write(block)) await once(out, "drain");
      }
      if (catalogBlock && !catalogOut.write(catalogBlock)) await once(catalogOut, "drain");
    }
    for (const out of [...Object.values(outs), catalogOut]) {
      out.end();
      await once(out, "finish");
    }
  }
  return { ndjson, copies, catalog };
};

const newDatabase = async (label: string) => {
  const scratch = await createBenchDatabase(`gmi_bench_import_${label}`);
  await migrate(scratch.url);
  return scratch;
};

const withClient = async <T>(url: string, work: (c: pg.Client) => Promise<T>) => {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
};

/** Empties the event and cell tables, off the clock. */
const reset = (url: string) =>
  withClient(url, async (c) => {
    await c.query(`TRUNCATE ${[...EVENT_TABLE_NAMES, ...CELL_TABLES].join(", ")} RESTART IDENTITY`);
    await c.query("VACUUM ANALYZE");
  });

/** `\copy` of the three files, one after the other: its time and the server's CPU. */
const rawCopy = (url: string, copies: Record<string, string>) =>
  withClient(url, async (c) => {
    const pid = (await c.query<{ pid: number }>("SELECT pg_backend_pid() AS pid")).rows[0]?.pid ?? 0;
    const cpuBefore = backendCpuMs([pid]);
    const started = performance.now();
    for (const table of EVENT_TABLE_NAMES) {
      const sink = c.query(copyFrom(`COPY "${table}" (${COLUMNS[table]}) FROM STDIN`));
      await pipeline(createReadStream(copies[table] as string, { highWaterMark: 256 * 1024 }), sink);
    }
    return { ms: performance.now() - started, serverCpuMs: backendCpuMs([pid]) - cpuBefore };
  });

/** The cell rebuild the raw COPY's marks call for (the next rollup's first step): its time. */
const rawCells = async (url: string): Promise<number> => {
  const pool = new pg.Pool({ connectionString: url, max: 1 });
  try {
    const started = performance.now();
    await refreshCells(pool);
    return performance.now() - started;
  } finally {
    await pool.end();
  }
};

type RunResult = {
  ms: number;
  cellsMs: number;
  peakRssMb: number;
  nodeCpuMs: number;
  serverCpuMs: number;
  cellsServerCpuMs: number;
  new: number;
  duplicates: number;
  rejected: number;
  lines: number;
};

/** `gmi import FILE` in a process of its own (bench/import-run.ts). */
const importRun = async (url: string, file: string): Promise<RunResult> => {
  const tsx = path.join(here, "..", "node_modules", ".bin", "tsx");
  const { stdout } = await promisify(execFile)(tsx, [path.join(here, "import-run.ts"), url, file], {
    maxBuffer: 1 << 20,
  });
  return JSON.parse(stdout.trim().split("\n").at(-1) as string) as RunResult;
};

const main = async () => {
  if (!adminUrl) throw new Error("Set BENCH_DATABASE_URL or TEST_DATABASE_URL (a PostgreSQL admin URL)");
  const files = await prepareFiles();
  const size = (await stat(files.ndjson)).size;
  const raw = await newDatabase("raw");
  const imp = await newDatabase("import");
  try {
    // The catalog is in both before the clock starts: the raw COPY's tables are the importer's.
    await importRun(raw.url, files.catalog);
    await importRun(imp.url, files.catalog);
    const rawRuns: { ms: number; serverCpuMs: number; cellsMs?: number }[] = [];
    const importRuns: RunResult[] = [];
    for (let round = 0; round < rounds; round++) {
      await reset(raw.url);
      await reset(imp.url);
      // Alternating which goes first, so neither always runs on a warmer machine.
      const runRaw = async () => {
        const run = await rawCopy(raw.url, files.copies);
        rawRuns.push(values["raw-cells"] ? { ...run, cellsMs: await rawCells(raw.url) } : run);
      };
      const runImport = async () => importRuns.push(await importRun(imp.url, files.ndjson));
      if (round % 2 === 0) {
        await runRaw();
        await runImport();
      } else {
        await runImport();
        await runRaw();
      }
      process.stdout.write(
        `round ${round + 1}: raw COPY ${(rawRuns.at(-1)?.ms ?? 0).toFixed(0)} ms, gmi import ${(importRuns.at(-1)?.ms ?? 0).toFixed(0)} ms (+ cells ${(importRuns.at(-1)?.cellsMs ?? 0).toFixed(0)} ms)\n`,
      );
    }
    const again = values["skip-reimport"] ? null : await importRun(imp.url, files.ndjson);
    const m = (pick: (r: RunResult) => number) => median(importRuns.map(pick));
    const rawMs = median(rawRuns.map((r) => r.ms));
    const rawCpu = median(rawRuns.map((r) => r.serverCpuMs));
    const importMs = m((r) => r.ms);
    const cellsMs = m((r) => r.cellsMs);
    const last = importRuns.at(-1);
    const s = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
    process.stdout.write(
      [
        "",
        `file:                  ${events.toLocaleString("en")} events, ${last?.lines.toLocaleString("en")} lines, ${mb(size)} NDJSON, ${rounds} round(s), medians`,
        `raw COPY:              ${s(rawMs)} (server CPU ${s(rawCpu)}): the three event tables with their indexes and triggers`,
        `gmi import:            ${s(importMs)} (server CPU ${s(m((r) => r.serverCpuMs))}, importer CPU ${s(m((r) => r.nodeCpuMs))}); ${last?.new.toLocaleString("en")} new, ${last?.duplicates} duplicates, ${last?.rejected} rejected`,
        `ratio raw / import:    ${median(rawRuns.map((r, i) => r.ms / (importRuns[i]?.ms ?? Number.NaN))).toFixed(2)} (median of the rounds' ratios: ${rawRuns.map((r, i) => (r.ms / (importRuns[i]?.ms ?? Number.NaN)).toFixed(2)).join(", ")}; goal: >= 0.7); server CPU alone ${(rawCpu / m((r) => r.serverCpuMs)).toFixed(2)}`,
        `next rollup's cells:   ${s(cellsMs)} (server CPU ${s(m((r) => r.cellsServerCpuMs))}): the loaded days' daily cells, rebuilt by the next rollup`,
        `ratio with the cells:  ${median(rawRuns.map((r, i) => r.ms / ((importRuns[i]?.ms ?? Number.NaN) + (importRuns[i]?.cellsMs ?? 0)))).toFixed(2)}: raw COPY / (import + the rebuild), the rebuild charged to the import alone`,
        values["raw-cells"]
          ? `both with their cells: ${median(rawRuns.map((r, i) => (r.ms + (r.cellsMs ?? 0)) / ((importRuns[i]?.ms ?? Number.NaN) + (importRuns[i]?.cellsMs ?? 0)))).toFixed(2)}: (raw COPY + its rebuild ${s(median(rawRuns.map((r) => r.cellsMs ?? 0)))}) / (import + its rebuild): the raw COPY's triggers leave the same days marked`
          : "both with their cells: not measured (--raw-cells)",
        `peak RSS of import:    ${Math.max(...importRuns.map((r) => r.peakRssMb)).toFixed(0)} MB (goal: < 300 MB)`,
        again
          ? `re-import, same file:  ${s(again.ms)}: ${again.new} new, ${again.duplicates.toLocaleString("en")} duplicates (peak RSS ${again.peakRssMb.toFixed(0)} MB)`
          : "re-import, same file:  skipped (--skip-reimport)",
        "",
      ].join("\n"),
    );
  } finally {
    if (process.env.BENCH_KEEP !== "1") {
      await raw.drop();
      await imp.drop();
    }
  }
};

await main();
