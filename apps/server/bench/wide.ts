/**
 * `pnpm bench:wide`: cold reads. The real server (bench/server-child.ts: src/main.ts in production
 * mode, Redis windows, PostgreSQL) under the traffic of many customers each reading their own games
 * and dates: tens of thousands of distinct URLs over every rolled-up date, Zipf popularity with a
 * long tail (bench/wide-mix.ts), from 20 metered keys spread over the four plans' page caps.
 * Against a bare Fastify twin that makes one PostgreSQL round trip per request (a prepared one-row
 * SELECT on a pool of the server's size) and serves the same bodies: what a read costs when each
 * answer needs the database once.
 *
 * Prints, for the server and its twin: req/s, p50/p99 (ms), CPU per request of the Node process
 * (/proc/<pid>/stat) and of the PostgreSQL backends (their /proc entries), PostgreSQL transactions
 * per request (pg_stat_database: each statement outside a transaction block is one round trip), the
 * ratio, the share of answers served from the response cache (gmi_response_cache_lookups_total of
 * /metrics) and the statuses. On a PostgreSQL with pg_stat_statements loaded (BENCH_OWN_POSTGRES=1
 * starts one of the bench's own), the server's statements by calls per request.
 *
 * Data: the demo marketplace (small scale, 90 days of events) with its last 31 dates rolled up,
 * seeded once into a template database (`gmi_wide_template_<hash of the migrations and the seed>`,
 * about 200 MB, kept on the admin server between runs; BENCH_FRESH=1 builds it again) and copied per
 * run. Every distinct answer is recorded once from a first server, which is then replaced by a fresh
 * one: the measured server starts with empty caches, is warmed up with a different draw of the same
 * traffic (BENCH_WARMUP_REQUESTS), then measured on the list the twin was measured on.
 *
 * Each server is measured twice. Req/s, latency and the kept share: in a steady state, straight
 * after the warm-up, as traffic that does not pause. CPU and statements per request: on a third draw
 * after PostgreSQL's counters have settled (11 s idle before and after), which a lull precedes: a
 * lull empties what idle time gives back (leases, key records), so its first second is not the
 * steady state (measured: 4,700 requests in the first second against 7,400 a second after it).
 *
 * Env: BENCH_DATABASE_URL or TEST_DATABASE_URL (admin URL), BENCH_REDIS_URL or TEST_REDIS_URL
 * (required), BENCH_DURATION (s, default 10), BENCH_WARMUP_REQUESTS (default 60,000), BENCH_CONNECTIONS
 * (default 50), BENCH_WIDE_URLS (distinct URLs, default 30,000), BENCH_WIDE_ZIPF (s of the
 * popularity, default 1), BENCH_CPU_PROF (a directory: the measured server writes a V8 CPU profile
 * there at exit), BENCH_OWN_POSTGRES=1 (with BENCH_PG_SETTINGS: JSON of more settings of that server),
 * BENCH_SERVER_LOG (a file the measured server's request log is appended to: per-route durations),
 * BENCH_FRESH=1, BENCH_SERVER_ENV (JSON of more server
 * settings, e.g. '{"DATABASE_READ_URL":"..."}'), BENCH_SERVER_ENTRY (the server's entry, relative to
 * apps/server, default src/main.ts: another tree's server extracted beside it, for a before/after).
 */
import type { ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { Redis } from "ioredis";
import pg from "pg";
import { backendCpuMs } from "./backend-cpu.js";
import {
  ANSWER_HEADER,
  type Answer,
  benchEntry,
  deleteKeys,
  type LoadRequest,
  type LoadResult,
  processCpuMs,
  runLoad,
  startTwin,
  statusShares,
} from "./children.js";
import { type ServerChild, startServer } from "./server-child.js";
import {
  adminServer,
  benchDatabase,
  createKeys,
  pgClient,
  readCatalog,
  WIDE_PLANS,
} from "./wide-database.js";
import { wideTraffic, wideUrls } from "./wide-mix.js";

const entry = fileURLToPath(import.meta.url);
const env = process.env;
const duration = Number(env.BENCH_DURATION ?? 10);
/**
 * Warm-up in requests, not seconds: the kept share grows with the requests served, so a warm-up of
 * a fixed time would give a slower server a colder cache (measured: 53% kept against 59%).
 */
const warmup = Number(env.BENCH_WARMUP_REQUESTS ?? 60_000);
const connections = Number(env.BENCH_CONNECTIONS ?? 50);
const urlCount = Number(env.BENCH_WIDE_URLS ?? 30_000);
const zipfS = Number(env.BENCH_WIDE_ZIPF ?? 1);
const redisUrl = env.BENCH_REDIS_URL ?? env.TEST_REDIS_URL;
const serverEnv = JSON.parse(env.BENCH_SERVER_ENV ?? "{}") as Record<string, string>;

/** Requests per list: more than a phase sends at the twin's rate, so no list loops. */
const LIST_LENGTH = 200_000;
const METRICS_TOKEN = "bench-wide-metrics-token";

/** Every URL's answer, asked once (8 at a time) with one key: bodies do not depend on the plan here. */
const recordAnswers = async (url: string, key: string, paths: string[]): Promise<Answer[]> => {
  const answers: Answer[] = new Array(paths.length);
  let next = 0;
  const worker = async () => {
    while (next < paths.length) {
      const index = next++;
      const response = await fetch(`${url}${paths[index]}`, { headers: { authorization: `Bearer ${key}` } });
      if (response.status >= 500)
        throw new Error(`${paths[index]}: ${response.status} ${await response.text()}`);
      answers[index] = { status: response.status, body: await response.json() };
    }
  };
  await Promise.all(Array.from({ length: 8 }, worker));
  return answers;
};

/** Counter values of the server's /metrics, by sample name (with labels). */
const scrape = async (url: string): Promise<Map<string, number>> => {
  const text = await (
    await fetch(`${url}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } })
  ).text();
  const samples = new Map<string, number>();
  for (const line of text.split("\n")) {
    const match = /^(gmi_response_cache_lookups_total\{[^}]*\}) (\d+)/.exec(line);
    if (match?.[1]) samples.set(match[1], Number(match[2]));
  }
  return samples;
};
const lookups = (samples: Map<string, number>, outcome: string) =>
  samples.get(`gmi_response_cache_lookups_total{outcome="${outcome}"}`) ?? 0;

/** The server's statements by calls, when pg_stat_statements is loaded (null otherwise). */
const statementStats = {
  reset: async (stats: pg.Client) => {
    try {
      await stats.query("CREATE EXTENSION IF NOT EXISTS pg_stat_statements");
      await stats.query("SELECT pg_stat_statements_reset()");
      return true;
    } catch {
      return false;
    }
  },
  top: async (stats: pg.Client, requests: number) => {
    const { rows } = await stats.query<{
      calls: number;
      mean_ms: number;
      rows_per_call: number;
      blocks_per_call: number;
      query: string;
    }>(
      `SELECT calls, mean_exec_time AS mean_ms, rows::float8 / calls AS rows_per_call,
         (shared_blks_hit + shared_blks_read)::float8 / calls AS blocks_per_call,
         regexp_replace(query, '\\s+', ' ', 'g') AS query
       FROM pg_stat_statements WHERE dbid = (SELECT oid FROM pg_database WHERE datname = current_database())
         AND query NOT LIKE '%pg_stat_statements%'
       ORDER BY calls DESC LIMIT 20`,
    );
    return rows.map(
      (r) =>
        `${(r.calls / Math.max(1, requests)).toFixed(3).padStart(7)} /req ${r.mean_ms.toFixed(3).padStart(8)} ms ` +
        `${r.rows_per_call.toFixed(1).padStart(6)} rows ${r.blocks_per_call.toFixed(1).padStart(7)} blocks  ${r.query.slice(0, 150)}`,
    );
  },
};

const main = async () => {
  if (!redisUrl)
    throw new Error("Set BENCH_REDIS_URL or TEST_REDIS_URL (the server counts its windows in Redis)");
  const started = performance.now();
  const adminHost = await adminServer(env, Boolean(env.BENCH_OWN_POSTGRES));
  const admin = await pgClient(adminHost.url);
  const database = await benchDatabase(admin, adminHost.url, Boolean(env.BENCH_FRESH));
  const redisPrefix = `gmi:bench:${database.name}:`;
  const work = mkdtempSync(path.join(tmpdir(), "gmi-wide-"));
  const redis = new Redis(redisUrl);
  const stats = await pgClient(database.url);
  let server: ServerChild | null = null;
  let twin: ChildProcess | null = null;
  try {
    const pool = new pg.Pool({ connectionString: database.url, max: 2 });
    const keys = await createKeys(pool);
    const catalog = await readCatalog(pool);
    await pool.end();
    const paths = wideUrls(catalog, urlCount, 1);
    const seededIn = (performance.now() - started) / 1000;

    const serverOptions = {
      entry: env.BENCH_SERVER_ENTRY,
      databaseUrl: database.url,
      redisUrl,
      redisPrefix,
      env: { METRICS_TOKEN, ...serverEnv },
    };
    // Recorded with an Enterprise-capped key: with no `limit` in the URLs, every cap gives the same page.
    const recording = performance.now();
    const recorder = await startServer(serverOptions);
    const answers = await recordAnswers(recorder.url, keys[keys.length - 1] ?? "", paths).finally(() =>
      recorder.stop(),
    );
    const recordedIn = (performance.now() - recording) / 1000;
    const answersFile = path.join(work, "answers.json");
    writeFileSync(answersFile, JSON.stringify(answers));
    const statuses = new Map<number, number>();
    for (const a of answers) statuses.set(a.status, (statuses.get(a.status) ?? 0) + 1);

    const listFile = (name: string, seed: number) => {
      const file = path.join(work, `${name}.json`);
      const list: LoadRequest[] = wideTraffic(paths.length, LIST_LENGTH, zipfS, seed).map((index, n) => ({
        method: "GET",
        path: paths[index] ?? "/",
        headers: { authorization: `Bearer ${keys[n % keys.length]}`, [ANSWER_HEADER]: String(index) },
      }));
      writeFileSync(file, JSON.stringify(list));
      return file;
    };
    const measured = listFile("measured", 2);
    const warming = listFile("warm-up", 3);
    const counted = listFile("counted", 4);

    const transactions = async () =>
      Number(
        (
          await stats.query<{ n: string }>(
            "SELECT (xact_commit + xact_rollback)::text AS n FROM pg_stat_database WHERE datname = current_database()",
          )
        ).rows[0]?.n ?? 0,
      );
    const backends = async () =>
      (
        await stats.query<{ pid: number }>(
          "SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()",
        )
      ).rows.map((r) => r.pid);
    // A busy backend reports its statistics at most once a second, and what is left when it goes
    // idle within 10 s (PostgreSQL's PGSTAT_IDLE_INTERVAL): after 1.5 s, up to the last second of
    // each backend's work was missing (measured: 4 of 1,000 statements counted, 1,004 after 11 s).
    const settle = () => new Promise((resolve) => setTimeout(resolve, 11_000));
    const backendCpu = async () =>
      new Map((await backends()).map((backend) => [backend, backendCpuMs([backend])]));
    /** Throughput and latency in a steady state: straight after the warm-up, no lull before it. */
    const steady = (url: string) => runLoad(entry, { url, file: measured, connections, duration });
    /** CPU and PostgreSQL transactions per request, between settled counters. */
    const costs = async (url: string, pid: number) => {
      await settle();
      const xactBefore = await transactions();
      const pgCpuBefore = await backendCpu();
      const cpuBefore = processCpuMs(pid);
      const result: LoadResult = await runLoad(entry, { url, file: counted, connections, duration });
      const cpu = processCpuMs(pid) - cpuBefore;
      let pgCpu = 0;
      for (const [backend, ms] of await backendCpu()) pgCpu += ms - (pgCpuBefore.get(backend) ?? 0);
      await settle();
      const total = Math.max(1, result.total);
      return {
        requests: result.total,
        cpuUs: (cpu * 1000) / total,
        pgCpuUs: (pgCpu * 1000) / total,
        pgPerRequest: ((await transactions()) - xactBefore) / total,
      };
    };

    const startedTwin = await startTwin(entry, answersFile, database.url);
    twin = startedTwin.child;
    // Warmed up like the server (JIT, its pool's connections open before their CPU is read).
    const warmUp = (url: string) =>
      runLoad(entry, { url, file: warming, connections, duration: 600, amount: warmup });
    if (warmup > 0) await warmUp(startedTwin.url);
    const bare = { result: await steady(startedTwin.url), ...(await costs(startedTwin.url, twin.pid ?? 0)) };
    twin.kill();
    twin = null;

    server = await startServer({
      ...serverOptions,
      cpuProfileDir: env.BENCH_CPU_PROF,
      logFile: env.BENCH_SERVER_LOG,
    });
    if (warmup > 0) await warmUp(server.url);
    const before = await scrape(server.url);
    const appSteady = await steady(server.url);
    const after = await scrape(server.url);
    const profiled = await statementStats.reset(stats);
    const app = { result: appSteady, ...(await costs(server.url, server.child.pid ?? 0)) };
    const hits = lookups(after, "hit") - lookups(before, "hit");
    const misses = lookups(after, "miss") - lookups(before, "miss");
    const statements = profiled ? await statementStats.top(stats, app.requests) : null;

    const recorded = [...statuses].map(([status, n]) => `${status}: ${n}`).join(", ");
    console.log(
      `\nbench:wide: ${paths.length} distinct URLs over ${catalog.dates.length} dates (recorded answers ${recorded}), ` +
        `Zipf s=${zipfS}, ${connections} connections, ${duration} s each after ${warmup} requests of warm-up; ` +
        `${keys.length} keys over ${WIDE_PLANS.length} plans; database ready in ${seededIn.toFixed(0)} s, answers recorded in ${recordedIn.toFixed(0)} s; ` +
        `database ${database.name}${env.BENCH_OWN_POSTGRES ? " (the bench's own PostgreSQL)" : ""}\n`,
    );
    const row = (name: string, m: typeof app, extra: string) =>
      [
        name.padEnd(8),
        m.result.rps.toFixed(0).padStart(7),
        m.result.p50.toFixed(1).padStart(6),
        m.result.p99.toFixed(1).padStart(6),
        m.cpuUs.toFixed(0).padStart(7),
        m.pgCpuUs.toFixed(0).padStart(7),
        m.pgPerRequest.toFixed(3).padStart(7),
        extra,
      ].join(" ");
    const header = ["".padEnd(8), "req/s", "p50", "p99", "cpu us", "pg cpu", "pg/req"]
      .map((h, i) => (i === 0 ? h : h.padStart(i === 1 || i >= 4 ? 7 : 6)))
      .join(" ");
    console.log(`${header}\n${"-".repeat(header.length + 40)}`);
    console.log(
      row(
        "server",
        app,
        `  kept ${((100 * hits) / Math.max(1, hits + misses)).toFixed(1)}% of ${hits + misses} GETs  ${statusShares(app.result)}`,
      ),
    );
    console.log(row("twin", bare, `  ${statusShares(bare.result)}`));
    console.log(`\nratio (server req/s / twin req/s): ${(app.result.rps / bare.result.rps).toFixed(2)}`);
    console.log(
      "\ncpu us: the Node process's CPU time (user + system) per answered request; pg cpu: the PostgreSQL " +
        "backends' of the database (those open at its end); pg/req: PostgreSQL " +
        "transactions per request (pg_stat_database; one per statement outside a transaction block: " +
        "round trips); kept: GETs answered from the response cache (/metrics).",
    );
    if (statements) {
      console.log("\nThe server's statements (pg_stat_statements over its measurement), most called first:");
      for (const line of statements) console.log(`  ${line}`);
    }
  } finally {
    twin?.kill();
    await server?.stop();
    await stats.end();
    await deleteKeys(redis, redisPrefix);
    redis.disconnect();
    rmSync(work, { recursive: true, force: true });
    await database.drop();
    await admin.end();
    await adminHost.close();
  }
};

benchEntry(main);
