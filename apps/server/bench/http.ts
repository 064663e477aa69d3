/**
 * `pnpm bench:http`: the real app (auth, limits, metering, logging, PostgreSQL) against a bare
 * Fastify route returning a similar JSON body, in one run, on the same machine. Prints requests/s,
 * p50 and p99 per target and each target's ratio to the bare route (goal: >= 0.5).
 *
 * Env: BENCH_DATABASE_URL or TEST_DATABASE_URL (an admin URL; the bench creates and drops its own
 * database), BENCH_REDIS_URL (optional: count rate windows in Redis), BENCH_DURATION (seconds per
 * target and round, default 10), BENCH_ROUNDS (default 3; medians are reported), BENCH_CONNECTIONS
 * (default 50).
 * Add a target to TARGETS to measure another endpoint. Batch targets also print items/s
 * (requests/s x elements per request).
 */
import { randomBytes } from "node:crypto";
import type { PlanSlug } from "@gmi/contract";
import { SCOPES } from "@gmi/contract";
import autocannon from "autocannon";
import Fastify from "fastify";
import { Redis } from "ioredis";
import pino from "pino";
import { buildApp, createLogger } from "../src/app.js";
import { loadConfig } from "../src/config.js";
import { createOrganization, ensurePlans } from "../src/data/accounts.js";
import { issueApiKey } from "../src/data/keys.js";
import { redisLimiterStore } from "../src/data/redis-limiter.js";
import { pgUsageStore } from "../src/data/usage.js";
import { migrate } from "../src/db/migrate.js";
import { openDatabase } from "../src/db/open.js";
import { DEFAULT_SCORING } from "../src/domain/analytics/weights.js";
import { memoryLimiterStore } from "../src/domain/limits/store.js";
import { seedDemo } from "../src/jobs/seed-demo.js";
import { adminQuery, adminUrl } from "./admin.js";

/** `server`: which server answers: the bare baseline, the app, or the app without its catalog cache. */
type Target = {
  name: string;
  server: "bare" | "app" | "app-uncached" | "app-silent";
  path: string;
  method?: "GET" | "POST";
  body?: unknown;
  headers?: Record<string, string>;
  /** Batch targets: elements per request, for items/s. */
  items?: number;
};

/** 100 demo games (the few disabled ones resolve as found:false, as in real traffic). */
const BATCH_100 = { requests: Array.from({ length: 100 }, (_, i) => ({ game_id: 1001 + i })) };

/** What to measure; each app target is compared with the bare baseline (the first target). */
const TARGETS: Target[] = [
  { name: "bare fastify (baseline)", server: "bare", path: "/bare" },
  { name: "GET /api/v1/games/titles", server: "app", path: "/api/v1/games/titles" },
  { name: "  same, catalog cache off", server: "app-uncached", path: "/api/v1/games/titles" },
  { name: "  same, request log off", server: "app-silent", path: "/api/v1/games/titles" },
  { name: "GET /api/v1/games/game/1001", server: "app", path: "/api/v1/games/game/1001" },
  { name: "GET /healthz (app shell, no auth)", server: "app", path: "/healthz" },
  { name: "GET /api/v1/intelligence", server: "app", path: "/api/v1/intelligence?period=7d" },
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
const duration = Number(env.BENCH_DURATION ?? 10);
const connections = Number(env.BENCH_CONNECTIONS ?? 50);
const rounds = Number(env.BENCH_ROUNDS ?? 3);

const main = async () => {
  if (!adminUrl) throw new Error("Set BENCH_DATABASE_URL or TEST_DATABASE_URL (a PostgreSQL admin URL)");
  const name = `gmi_bench_${randomBytes(4).toString("hex")}`;
  await adminQuery(`CREATE DATABASE ${name}`);
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  await migrate(url.toString());
  const db = await openDatabase({ databaseUrl: url.toString(), dataDir: "" });
  const redis = env.BENCH_REDIS_URL ? new Redis(env.BENCH_REDIS_URL) : null;
  try {
    await ensurePlans(db.pool);
    // The demo marketplace: the catalog for the catalog targets, one rolled-up date for the analytics ones.
    await seedDemo(db, DEFAULT_SCORING, { scale: "small", seed: 1, endDate: "2026-11-20", rollupDays: 1 });
    // Statistics as autovacuum leaves them in a running service: straight after the bulk load the
    // planner believes the snapshot tables are empty (the 100-id profile read took 14 ms, not 1 ms).
    await db.pool.query("ANALYZE");
    // Enterprise's 3,000/min would be spent in the first second: a plan of the bench's own, unmetered
    // like Enterprise but with windows too large to reach, so every request is checked, none refused.
    await db.pool.query(
      `INSERT INTO plans (slug, name, rate_limit_per_minute, rate_limit_per_day, monthly_quota, max_batch_size,
         max_page_size, overage) VALUES ('bench', 'Bench', 1000000000, 1000000000, NULL, 250, 200, false)`,
    );
    const org = await createOrganization(db.pool, { name: "bench", plan: "bench" as PlanSlug });
    const { key } = await issueApiKey(db.pool, {
      organizationId: org.id,
      clientId: null,
      name: "bench",
      scopes: [...SCOPES],
      expiresAt: null,
    });

    // The app as in production: info-level log line per request (written to /dev/null here).
    const secret = randomBytes(32).toString("hex");
    const usage = pgUsageStore(db.pool, { flushMs: 1_000 });
    const limiter = redis ? redisLimiterStore(redis, `gmi:bench:${name}:`) : memoryLimiterStore();
    const startApp = async (extraEnv: Record<string, string>) => {
      const config = loadConfig({ NODE_ENV: "production", CURSOR_SECRET: secret, PORT: "0", ...extraEnv });
      const logger = createLogger(
        config,
        pino.destination({ dest: "/dev/null", sync: false, minLength: 4096 }),
      );
      const app = await buildApp({ config, sql: db.pool, logger, limiter, usage });
      return { app, url: await app.listen({ port: 0, host: "127.0.0.1" }) };
    };
    const cached = await startApp({});
    const uncached = await startApp({ CATALOG_CACHE_TTL_MS: "0" });
    const silent = await startApp({ LOG_LEVEL: "silent" });
    const appUrl = cached.url;

    // The baseline answers the same JSON body as the first catalog target, without any of our work.
    const sample = await (
      await fetch(`${appUrl}/api/v1/games/titles`, { headers: { authorization: `Bearer ${key}` } })
    ).json();
    const bare = Fastify();
    bare.get("/bare", async () => sample);
    const urls = {
      bare: await bare.listen({ port: 0, host: "127.0.0.1" }),
      app: cached.url,
      "app-uncached": uncached.url,
      "app-silent": silent.url,
    };

    // A replay target measures replays: its key is stored before the clock starts.
    for (const target of TARGETS.filter((t) => t.headers?.["idempotency-key"])) {
      await fetch(`${urls[target.server]}${target.path}`, {
        method: target.method ?? "GET",
        headers: { authorization: `Bearer ${key}`, "content-type": "application/json", ...target.headers },
        body: JSON.stringify(target.body),
      });
    }
    console.log(
      `\n${rounds} rounds x ${duration}s per target, ${connections} connections, autocannon in a worker thread; ` +
        `limiter: ${redis ? "redis" : "memory"}; unmetered plan with unreachable windows\n`,
    );
    // Rounds interleave the targets, and each figure is the median over rounds: on a shared
    // two-core machine a single run mostly measures what else was running at that moment.
    type Sample = { rps: number; p50: number; p99: number; non2xx: number };
    const samples = new Map<Target, Sample[]>(TARGETS.map((t) => [t, []]));
    for (let round = 0; round < rounds; round++) {
      for (const target of TARGETS) {
        const result = await autocannon({
          url: `${urls[target.server]}${target.path}`,
          method: target.method ?? "GET",
          headers:
            target.server === "bare"
              ? {}
              : {
                  authorization: `Bearer ${key}`,
                  ...(target.body ? { "content-type": "application/json" } : {}),
                  ...target.headers,
                },
          ...(target.body ? { body: JSON.stringify(target.body) } : {}),
          connections,
          duration,
          workers: 1,
        });
        samples.get(target)?.push({
          rps: result.requests.average,
          p50: result.latency.p50,
          p99: result.latency.p99,
          non2xx: result.non2xx,
        });
      }
    }
    const median = (values: number[]) => {
      const sorted = [...values].sort((a, b) => a - b);
      return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
    };
    const rows = TARGETS.map((target) => {
      const list = samples.get(target) ?? [];
      return {
        target,
        rps: median(list.map((x) => x.rps)),
        p50: median(list.map((x) => x.p50)),
        p99: median(list.map((x) => x.p99)),
        non2xx: list.reduce((sum, x) => sum + x.non2xx, 0),
        all: list.map((x) => x.rps.toFixed(0)).join("/"),
      };
    });
    const baseline = rows.find((r) => r.target.server === "bare")?.rps ?? Number.NaN;
    console.log(
      `${"target".padEnd(36)} ${"req/s".padStart(8)} ${"p50 ms".padStart(7)} ${"p99 ms".padStart(7)} ${"non-2xx".padStart(8)} ratio  (req/s per round)`,
    );
    for (const r of rows) {
      console.log(
        `${r.target.name.padEnd(36)} ${r.rps.toFixed(0).padStart(8)} ${String(r.p50).padStart(7)} ${String(r.p99).padStart(7)} ` +
          `${String(r.non2xx).padStart(8)} ${(r.rps / baseline).toFixed(2).padStart(5)}  (${r.all})`,
      );
    }
    for (const r of rows.filter((x) => x.target.items)) {
      console.log(`${r.target.name.trim()}: ${(r.rps * (r.target.items ?? 0)).toFixed(0)} items/s`);
    }
    await bare.close();
    await cached.app.close();
    await uncached.app.close();
    await silent.app.close();
    await usage.close();
  } finally {
    redis?.disconnect();
    await db.close();
    await adminQuery(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  }
};

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
