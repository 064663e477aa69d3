/**
 * `pnpm bench:http`: the real app (auth, limits, metering, logging, PostgreSQL) against bare
 * Fastify, in one run, on the same machine. Every target has a bare twin: a plain Fastify route
 * answering the very response the app gave, so the ratio is what our work costs, not what a
 * bigger body costs to send. Prints requests/s, p50, p99 and the servers' CPU time per request of
 * both, and the ratio (goal: >= 0.5).
 *
 * Env: BENCH_DATABASE_URL or TEST_DATABASE_URL (an admin URL; the bench creates and drops its own
 * database), BENCH_REDIS_URL (optional: count rate windows in Redis), BENCH_DURATION (seconds per
 * target and round, default 5), BENCH_ROUNDS (default 3; medians are reported), BENCH_CONNECTIONS
 * (default 50), BENCH_ONLY (a regular expression: only the targets whose name matches).
 * Add a target to TARGETS to measure another endpoint. Batch targets also print items/s
 * (requests/s x elements per request).
 */
import { fork } from "node:child_process";
import { randomBytes } from "node:crypto";
import { openSync } from "node:fs";
import { fileURLToPath } from "node:url";
import autocannon from "autocannon";
import Fastify from "fastify";
import { Redis } from "ioredis";
import { buildApp, createLogger } from "../src/app.js";
import { loadConfig } from "../src/config.js";
import { ensurePlans } from "../src/data/accounts.js";
import { migrate } from "../src/db/migrate.js";
import { openDatabase } from "../src/db/open.js";
import { seedDemo } from "../src/demo/seed.js";
import { DEFAULT_SCORING } from "../src/domain/analytics/weights.js";
import { batchedLineWriter } from "../src/logging/line-writer.js";
import { pgUsageStore } from "../src/metering/postgres-quota.js";
import { redisLimiterStore } from "../src/metering/redis-windows.js";
import { memoryLimiterStore } from "../src/metering/window-store.js";
import { adminUrl, createBenchDatabase } from "./admin.js";
import { benchKey } from "./bench-key.js";

/**
 * `server`: which app answers: as in production, without its response cache (every answer built
 * and serialized), without any read cache (catalog reads from PostgreSQL), or without its log.
 */
type Target = {
  name: string;
  server: "app" | "app-unkept" | "app-uncached" | "app-silent";
  path: string;
  method?: "GET" | "POST";
  body?: unknown;
  headers?: Record<string, string>;
  /** Batch targets: elements per request, for items/s. */
  items?: number;
};

/** 100 demo games (the few disabled ones resolve as found:false, as in real traffic). */
const BATCH_100 = { requests: Array.from({ length: 100 }, (_, i) => ({ game_id: 1001 + i })) };

/** What to measure; each target is compared with its bare twin, which serves the same response. */
const TARGETS: Target[] = [
  { name: "GET /api/v1/games/titles", server: "app", path: "/api/v1/games/titles" },
  { name: "  same, response cache off", server: "app-unkept", path: "/api/v1/games/titles" },
  { name: "  same, response + catalog caches off", server: "app-uncached", path: "/api/v1/games/titles" },
  { name: "  same, request log off", server: "app-silent", path: "/api/v1/games/titles" },
  { name: "GET /api/v1/games/game/1001", server: "app", path: "/api/v1/games/game/1001" },
  { name: "GET /healthz (app shell, no auth)", server: "app", path: "/healthz" },
  { name: "GET /api/v1/intelligence", server: "app", path: "/api/v1/intelligence?period=7d" },
  { name: "  same, response cache off", server: "app-unkept", path: "/api/v1/intelligence?period=7d" },
  {
    name: "GET /api/v1/demand-intent/searches",
    server: "app",
    path: "/api/v1/demand-intent/searches?period=7d",
  },
  {
    name: "POST /intelligence/batch, 100 items",
    server: "app",
    path: "/api/v1/intelligence/batch",
    method: "POST",
    body: BATCH_100,
    items: 100,
  },
  {
    name: "  same, one Idempotency-Key (replays)",
    server: "app",
    path: "/api/v1/intelligence/batch",
    method: "POST",
    body: BATCH_100,
    headers: { "idempotency-key": "bench-replay" },
    items: 100,
  },
];

const env = process.env;
const duration = Number(env.BENCH_DURATION ?? 5);
const connections = Number(env.BENCH_CONNECTIONS ?? 50);
const rounds = Number(env.BENCH_ROUNDS ?? 3);
/** BENCH_ONLY=regex: measure only the targets whose name matches. */
const only = env.BENCH_ONLY ? new RegExp(env.BENCH_ONLY) : null;
const targets = TARGETS.filter((t) => !only || only.test(t.name));

/**
 * Runs autocannon in a process of its own: the load generator then competes with the servers only
 * for the machine's cores, not for their event loop, and the bench process's CPU time is the
 * servers' own (the "cpu us/req" column: server CPU per answered request, robust to noise).
 */
const loadInChild = (options: autocannon.Options): Promise<autocannon.Result> =>
  new Promise((resolve, reject) => {
    const child = fork(fileURLToPath(import.meta.url), ["--load"], { execArgv: process.execArgv });
    child.once("message", (result) => {
      resolve(result as autocannon.Result);
      child.disconnect();
    });
    child.once("error", reject);
    child.once("exit", (code) => {
      if (code !== 0) reject(new Error(`load generator exited with ${code}`));
    });
    child.send(options);
  });

const runLoad = () =>
  process.once("message", async (options) => {
    const result = await autocannon(options as autocannon.Options);
    process.send?.({ requests: result.requests, latency: result.latency, non2xx: result.non2xx });
  });

const main = async () => {
  if (!adminUrl) throw new Error("Set BENCH_DATABASE_URL or TEST_DATABASE_URL (a PostgreSQL admin URL)");
  const scratch = await createBenchDatabase("gmi_bench");
  const { name } = scratch;
  await migrate(scratch.url);
  const db = await openDatabase({ databaseUrl: scratch.url, dataDir: "" });
  const redis = env.BENCH_REDIS_URL ? new Redis(env.BENCH_REDIS_URL) : null;
  try {
    await ensurePlans(db.pool);
    // The demo marketplace: the catalog for the catalog targets, one rolled-up date for the analytics ones.
    await seedDemo(db, DEFAULT_SCORING, { scale: "small", seed: 1, endDate: "2026-11-20", rollupDays: 1 });
    // Statistics as autovacuum leaves them in a running service: straight after the bulk load the
    // planner believes the snapshot tables are empty (the 100-id profile read took 14 ms, not 1 ms).
    await db.pool.query("ANALYZE");
    const key = await benchKey(db.pool, null);

    // The app as in production: info-level log line per request, written as to standard output
    // (into /dev/null here).
    const devNull = batchedLineWriter(openSync("/dev/null", "w"));
    const secret = randomBytes(32).toString("hex");
    const usage = pgUsageStore(db.pool, { flushMs: 1_000 });
    const limiter = redis ? redisLimiterStore(redis, `gmi:bench:${name}:`) : memoryLimiterStore();
    const startApp = async (extraEnv: Record<string, string>) => {
      const config = loadConfig({ NODE_ENV: "production", CURSOR_SECRET: secret, PORT: "0", ...extraEnv });
      const logger = createLogger(config, devNull);
      const app = await buildApp({ config, sql: db.pool, logger, limiter, usage });
      return { app, url: await app.listen({ port: 0, host: "127.0.0.1" }) };
    };
    const cached = await startApp({});
    const unkept = await startApp({ RESPONSE_CACHE_TTL_MS: "0" });
    const uncached = await startApp({ RESPONSE_CACHE_TTL_MS: "0" });
    const silent = await startApp({ LOG_LEVEL: "silent" });

    const urls = {
      app: cached.url,
      "app-unkept": unkept.url,
      "app-uncached": uncached.url,
      "app-silent": silent.url,
    };
    type LoadRequest = { method: string; headers: Record<string, string>; body?: string };
    const requestOf = (target: Target): LoadRequest => ({
      method: target.method ?? "GET",
      headers: {
        authorization: `Bearer ${key}`,
        ...(target.body ? { "content-type": "application/json" } : {}),
        ...target.headers,
      },
      ...(target.body ? { body: JSON.stringify(target.body) } : {}),
    });

    // Each target's bare twin: a plain Fastify route answering the body the app gave, as any route
    // does (an object Fastify serializes; a constant string would skip the JSON.stringify that any
    // real route pays: 25 us of a 9 KB page), parsing the same request body, with none of our work.
    // Asked once before the clock starts, which also stores the replay target's idempotency record.
    const bare = Fastify();
    const twins = new Map<Target, string>();
    for (const [index, target] of targets.entries()) {
      const response = await fetch(`${urls[target.server]}${target.path}`, requestOf(target));
      if (!response.ok) throw new Error(`${target.name}: ${response.status} ${await response.text()}`);
      const status = response.status;
      const body: unknown = await response.json();
      const path = `/bare/${index}`;
      bare.route({
        method: target.method ?? "GET",
        url: path,
        handler: async (_request, reply) => reply.status(status).send(body),
      });
      twins.set(target, path);
    }
    const bareUrl = await bare.listen({ port: 0, host: "127.0.0.1" });

    console.log(
      `\n${rounds} rounds x ${duration}s per target, ${connections} connections, autocannon in a child process; ` +
        `limiter: ${redis ? "redis" : "memory"}; unmetered plan with unreachable windows\n`,
    );
    // Rounds interleave the targets and their twins, and each figure is the median over rounds: on
    // a shared two-core machine a single run mostly measures what else was running at that moment.
    type Sample = { rps: number; p50: number; p99: number; non2xx: number; cpuUs: number };
    const measure = async (url: string, request: LoadRequest): Promise<Sample> => {
      const cpuBefore = process.cpuUsage();
      const result = await loadInChild({ url, ...request, connections, duration });
      const cpu = process.cpuUsage(cpuBefore);
      return {
        rps: result.requests.average,
        p50: result.latency.p50,
        p99: result.latency.p99,
        non2xx: result.non2xx,
        cpuUs: (cpu.user + cpu.system) / Math.max(1, result.requests.total),
      };
    };
    const samples = new Map<Target, { app: Sample[]; bare: Sample[] }>(
      targets.map((t) => [t, { app: [], bare: [] }]),
    );
    for (let round = 0; round < rounds; round++) {
      for (const target of targets) {
        const request = requestOf(target);
        const { body, method } = request;
        const twin = await measure(`${bareUrl}${twins.get(target)}`, {
          method,
          headers: body ? { "content-type": "application/json" } : {},
          ...(body ? { body } : {}),
        });
        samples.get(target)?.bare.push(twin);
        samples.get(target)?.app.push(await measure(`${urls[target.server]}${target.path}`, request));
      }
    }
    const median = (values: number[]) => {
      const sorted = [...values].sort((a, b) => a - b);
      return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
    };
    const summary = (list: Sample[]) => ({
      rps: median(list.map((x) => x.rps)),
      p50: median(list.map((x) => x.p50)),
      p99: median(list.map((x) => x.p99)),
      cpuUs: median(list.map((x) => x.cpuUs)),
      non2xx: list.reduce((sum, x) => sum + x.non2xx, 0),
    });
    const header = [
      "target".padEnd(38),
      "req/s".padStart(7),
      "p50".padStart(4),
      "p99".padStart(4),
      "cpu us".padStart(7),
      "| bare".padStart(8),
      "cpu us".padStart(7),
      "| ratio",
      " non-2xx",
    ].join(" ");
    console.log(`${header}\n${"-".repeat(header.length)}`);
    for (const target of targets) {
      const list = samples.get(target) ?? { app: [], bare: [] };
      const app = summary(list.app);
      const twin = summary(list.bare);
      console.log(
        [
          target.name.padEnd(38),
          app.rps.toFixed(0).padStart(7),
          String(app.p50).padStart(4),
          String(app.p99).padStart(4),
          app.cpuUs.toFixed(1).padStart(7),
          `| ${twin.rps.toFixed(0)}`.padStart(8),
          twin.cpuUs.toFixed(1).padStart(7),
          `| ${(app.rps / twin.rps).toFixed(2)}`.padStart(7),
          String(app.non2xx + twin.non2xx).padStart(8),
        ].join(" "),
      );
      if (target.items) {
        console.log(`${"".padEnd(38)} ${(app.rps * target.items).toFixed(0)} items/s`);
      }
    }
    console.log(
      "\nreq/s, p50 and p99 (ms): medians over rounds. cpu us: the servers' CPU time per answered request " +
        "(user + system). ratio: app req/s / bare twin req/s (goal: >= 0.5).",
    );
    await bare.close();
    await cached.app.close();
    await unkept.app.close();
    await uncached.app.close();
    await silent.app.close();
    await usage.close();
  } finally {
    redis?.disconnect();
    await db.close();
    await scratch.drop();
  }
};

if (process.argv.includes("--load")) {
  runLoad();
} else {
  main().catch((error: unknown) => {
    console.error(error);
    process.exit(1);
  });
}
