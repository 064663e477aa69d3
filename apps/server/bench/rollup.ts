/**
 * `pnpm bench:rollup`: generates a synthetic marketplace of BENCH_EVENTS events (default 10M),
 * imports it through the real importer (COPY), then times the rollup of its last date against the
 * bare aggregates that rollup needs (COUNT and COUNT DISTINCT per game over the 30-day window), run
 * by hand on the same data, interleaved, BENCH_ROUNDS times (default 3; medians reported). The
 * rollup is timed as scheduled (the previous date computed, so it slides that date's windows), as
 * a forced rerun, and in full (no previous date computed).
 *
 * The importer leaves the days it loaded marked; their daily event cells (rollup/event-cells.ts) are
 * rebuilt by the warm-up rollup of the previous date, off the clock, so no timed rollup pays for them.
 *
 * Env: BENCH_DATABASE_URL or TEST_DATABASE_URL (an admin URL; the bench creates and drops its own
 * database), BENCH_EVENTS, BENCH_ROUNDS, BENCH_KEEP=1 to keep the database, BENCH_REUSE_DB=name to
 * time the rollup again on a database an earlier run kept (no import; never dropped).
 */
import { randomBytes } from "node:crypto";
import { migrate } from "../src/db/migrate.js";
import { openDatabase } from "../src/db/open.js";
import { SNAPSHOT_ROW_TABLES } from "../src/db/tables/snapshot-rows.js";
import { seedDemo } from "../src/demo/seed.js";
import { DEFAULT_SCORING } from "../src/domain/analytics/weights.js";
import { addDays } from "../src/domain/analytics/windows.js";
import { rollupDate } from "../src/rollup/rollup-dates.js";
import { deleteSnapshots } from "../src/rollup/snapshot-writer.js";
import { adminQuery, adminUrl } from "./admin.js";

const env = process.env;
const events = Number(env.BENCH_EVENTS ?? 10_000_000);
const rounds = Number(env.BENCH_ROUNDS ?? 3);
const END = "2026-11-20";

/** What any rollup of D must at least compute: the redirect aggregates per game over D-29..D. */
const BARE_SQL = `
SELECT game_id, COUNT(*) AS redirects, COUNT(DISTINCT user_id) AS users
FROM redirect_events WHERE day BETWEEN $1::date - 29 AND $1::date GROUP BY game_id`;

const SNAPSHOT_TABLES = ["snapshots", ...SNAPSHOT_ROW_TABLES.map((table) => table.name)].join(", ");

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;

const main = async () => {
  if (!adminUrl) throw new Error("Set BENCH_DATABASE_URL or TEST_DATABASE_URL (a PostgreSQL admin URL)");
  const reuse = env.BENCH_REUSE_DB;
  const name = reuse ?? `gmi_bench_rollup_${randomBytes(4).toString("hex")}`;
  if (!reuse) await adminQuery(`CREATE DATABASE ${name}`);
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  const db = await openDatabase({ databaseUrl: url.toString(), dataDir: "" });
  try {
    await migrate(url.toString());
    let imported = "(reused database: not imported by this run)";
    if (!reuse) {
      process.stdout.write(`generating and importing ${events.toLocaleString("en")} events...\n`);
      const seeded = await seedDemo(db, DEFAULT_SCORING, {
        scale: events,
        seed: 7,
        endDate: END,
        rollupDays: 0,
      });
      const importRate = Math.round(seeded.events / (seeded.durationMs / 1000));
      imported = `${seeded.events.toLocaleString("en")} in ${(seeded.durationMs / 1000).toFixed(1)} s (${importRate.toLocaleString("en")} events/s, generation and daily-cell rebuild included)`;
    }
    await db.pool.query("VACUUM ANALYZE");

    const newDateMs: number[] = [];
    const rerunMs: number[] = [];
    const fullMs: number[] = [];
    const bareMs: number[] = [];
    const slid: string[] = [];
    /** Times a rollup of END, noting whether it slid its windows from the previous date's. */
    const timedRollup = async (into: number[]) => {
      const started = performance.now();
      const result = await rollupDate(db, END, DEFAULT_SCORING);
      into.push(performance.now() - started);
      slid.push(`${result.searchesSlid && result.eventsSlid}`);
    };
    const vacuum = () => db.pool.query(`VACUUM ${SNAPSHOT_TABLES}`);
    // A warm-up of each, then interleaved rounds, so both see the same cache state.
    await db.pool.query(BARE_SQL, [addDays(END, -1)]);
    await rollupDate(db, addDays(END, -1), DEFAULT_SCORING);
    for (let round = 0; round < rounds; round++) {
      // Off the clock: the date's snapshots are removed, so the first rollup of the round is the
      // scheduled case (a date not computed yet, the previous one computed: it slides the previous
      // date's windows), and the second a forced rerun that replaces them. Then, with the previous
      // date's snapshots removed too, the same date aggregated in full, after which the previous
      // date is rolled up again for the next round. VACUUM first: each round leaves rows dead, and
      // autovacuum reclaiming them during a timed run measured 10-20% on either side.
      await deleteSnapshots(db.pool, END);
      await vacuum();
      const started = performance.now();
      await db.pool.query(BARE_SQL, [END]);
      bareMs.push(performance.now() - started);
      await timedRollup(newDateMs);
      await vacuum();
      await timedRollup(rerunMs);
      await deleteSnapshots(db.pool, addDays(END, -1));
      await deleteSnapshots(db.pool, END);
      await vacuum();
      await timedRollup(fullMs);
      await rollupDate(db, addDays(END, -1), DEFAULT_SCORING);
    }
    const bare = median(bareMs);
    const rollup = median(newDateMs);
    const rerun = median(rerunMs);
    const full = median(fullMs);
    // Per round: the new date and the rerun slid; the full rollup did not.
    const expected = Array.from({ length: rounds }, () => ["true", "true", "false"]).flat();
    if (slid.join() !== expected.join()) throw new Error(`unexpected rollup paths: ${slid.join()}`);
    const { rows } = await db.pool.query<{ n: number }>(
      "SELECT count(*)::int AS n FROM redirect_events WHERE day BETWEEN $1::date - 29 AND $1::date",
      [END],
    );
    process.stdout.write(
      [
        "",
        `events imported:          ${imported}`,
        `redirects in the window:  ${(rows[0]?.n ?? 0).toLocaleString("en")}`,
        `bare aggregates (median): ${bare.toFixed(0)} ms`,
        `rollup of one date:       ${rollup.toFixed(0)} ms (a date not computed yet, the day after one that is: three periods, every scope, searches and conditions, slid from the previous date's)`,
        `ratio rollup / bare:      ${(rollup / bare).toFixed(2)} (goal: <= 1.5)`,
        `forced rerun of it:       ${rerun.toFixed(0)} ms (replacing its snapshots; ratio ${(rerun / bare).toFixed(2)})`,
        `the same date in full:    ${full.toFixed(0)} ms (no previous date computed: whole windows aggregated; ratio ${(full / bare).toFixed(2)})`,
        "",
      ].join("\n"),
    );
  } finally {
    await db.close();
    if (env.BENCH_KEEP !== "1" && !reuse) await adminQuery(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  }
};

await main();
