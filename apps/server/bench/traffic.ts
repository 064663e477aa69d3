/**
 * `pnpm bench:traffic`: the server as customers use it, against bare Fastify serving the same
 * bodies, in one run. The real server (src/main.ts, NODE_ENV=production, its request log written
 * to /dev/null, Redis rate windows, PostgreSQL) runs in a child process over a database of the
 * bench's own: the demo marketplace, and organizations on every plan plus two custom large ones
 * (one hard-capped, one unmetered) whose windows are out of reach, so throughput is the server's,
 * not a plan's. The load generator (autocannon, its own process) sends a mix drawn from the
 * seeded data (bench/traffic-mix.ts): every GET route, skewed popularity, batches of 1-250 with and
 * without Idempotency-Key, and on the "all plans" phase a share really refused (429, 402).
 * The bare twin (its own process) answers each request with the body the server gave for it.
 * Then the floods of clients without a key, on a server of their own (bench/traffic-unknown-keys.ts).
 *
 * Prints per phase: req/s, p50/p99 (ms), the ratio to the twin, the server's CPU per request (from
 * /proc/<pid>/stat) and PostgreSQL transactions per request (pg_stat_database of the bench's
 * database: each statement outside a transaction block is one, i.e. one round trip), and the
 * share of each status.
 *
 * Env: BENCH_DATABASE_URL or TEST_DATABASE_URL (admin URL; the bench creates and drops its own
 * database), BENCH_REDIS_URL or TEST_REDIS_URL (required; keys under a prefix of the run's own,
 * deleted at the end), BENCH_DURATION (seconds per phase and server, default 10), BENCH_WARMUP
 * (seconds of the phase's load sent to the server, unmeasured, before each phase; default 3),
 * BENCH_CONNECTIONS (default 50), BENCH_RATE (requests per second offered in the open-loop phase,
 * default 500), BENCH_ONLY (regular expression over phase names),
 * BENCH_CPU_PROF (a directory: the server writes a V8 CPU profile there at exit),
 * BENCH_LOG_STATEMENTS=1 (PostgreSQL logs every statement the server sends: log_statement = all),
 * BENCH_SERVER_ENTRY (the server's entry, relative to apps/server, default src/main.ts: another
 * tree's server extracted beside it, for a before/after, as bench:wide).
 */
import type { ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { PlanSlug } from "@gmi/contract";
import { PLANS, SCOPES } from "@gmi/contract";
import { Redis } from "ioredis";
import pg from "pg";
import { createOrganization, ensurePlans } from "../src/data/accounts.js";
import { issueApiKey } from "../src/data/keys.js";
import { migrate } from "../src/db/migrate.js";
import { openDatabase } from "../src/db/open.js";
import { seedDemo } from "../src/demo/seed.js";
import { DEFAULT_SCORING } from "../src/domain/analytics/weights.js";
import { billingMonth } from "../src/domain/limits/windows.js";
import { adminQuery, adminUrl, createBenchDatabase } from "./admin.js";
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
import { type BenchRequest, blend, buildMix, type Catalog, type RouteName } from "./traffic-mix.js";
import { unknownKeyPhases } from "./traffic-unknown-keys.js";

const entry = fileURLToPath(import.meta.url);
const env = process.env;
const duration = Number(env.BENCH_DURATION ?? 10);
const warmup = Number(env.BENCH_WARMUP ?? 3);
const connections = Number(env.BENCH_CONNECTIONS ?? 50);
const rate = Number(env.BENCH_RATE ?? 500);
const only = env.BENCH_ONLY ? new RegExp(env.BENCH_ONLY) : null;
const redisUrl = env.BENCH_REDIS_URL ?? env.TEST_REDIS_URL;

/** Custom plans with windows out of reach: what limits them is the server, not the plan. */
const LARGE = { rate_limit_per_minute: 1_000_000_000, rate_limit_per_day: 1_000_000_000 };
const CUSTOM_PLANS = [
  { slug: "bench-capped", name: "Bench capped", monthly_quota: 1_000_000_000, overage: false },
  { slug: "bench-unmetered", name: "Bench unmetered", monthly_quota: null, overage: false },
];

/** Key rings: organizations (keys per organization) on one plan. "exhausted": Free at its quota. */
const RINGS: Array<{ ring: string; plan: string; orgs: number; keysPerOrg: number; maxBatch: number }> = [
  { ring: "capped", plan: "bench-capped", orgs: 100, keysPerOrg: 2, maxBatch: 250 },
  { ring: "unmetered", plan: "bench-unmetered", orgs: 100, keysPerOrg: 2, maxBatch: 250 },
  {
    ring: "enterprise",
    plan: "enterprise",
    orgs: 20,
    keysPerOrg: 1,
    maxBatch: PLANS.enterprise.max_batch_size,
  },
  { ring: "pro", plan: "pro", orgs: 20, keysPerOrg: 1, maxBatch: PLANS.pro.max_batch_size },
  { ring: "starter", plan: "starter", orgs: 5, keysPerOrg: 1, maxBatch: PLANS.starter.max_batch_size },
  { ring: "free", plan: "free", orgs: 5, keysPerOrg: 1, maxBatch: PLANS.free.max_batch_size },
  { ring: "exhausted", plan: "free", orgs: 5, keysPerOrg: 1, maxBatch: PLANS.free.max_batch_size },
  // One customer alone (the idle request, and replays of one organization's key).
  { ring: "solo", plan: "bench-capped", orgs: 1, keysPerOrg: 1, maxBatch: 250 },
];

const GETS: RouteName[] = [
  "gameById",
  "intelligenceById",
  "intelligenceConditions",
  "gameConditions",
  "intelligenceList",
  "searches",
  "trending",
  "unmet",
  "searchConditions",
  "titles",
  "slugs",
  "bySlug",
  "byTitle",
  "byConsole",
  "consoles",
  "me",
];

const BATCH_100 = JSON.stringify({
  requests: Array.from({ length: 100 }, (_, i) => ({ game_id: 1001 + i })),
});

/** `prime`: the first request is sent once before the clock starts (stores the replayed answer). */
type Phase = {
  name: string;
  requests: BenchRequest[];
  connections: number;
  goal?: string;
  prime?: boolean;
  /** Requests per second offered (open loop), for a latency below saturation. */
  rate?: number;
};

const phasesOf = (catalog: Catalog): Phase[] => {
  const ringOf = (ring: string) => RINGS.find((r) => r.ring === ring) ?? RINGS[0];
  const mix = (ring: string, seed: number, routes?: RouteName[]) =>
    buildMix(catalog, {
      ring,
      count: 10_000,
      seed,
      maxBatch: ringOf(ring)?.maxBatch ?? 10,
      ...(routes ? { routes } : {}),
    });
  const batch100 = (ring: string, idempotencyKey?: string): BenchRequest => ({
    method: "POST",
    path: "/api/v1/intelligence/batch",
    body: BATCH_100,
    ring,
    answer: `POST batch100`,
    ...(idempotencyKey ? { idempotencyKey } : {}),
  });
  return [
    { name: "GET mix, hard-capped plan", requests: mix("capped", 1, GETS), connections, goal: ">= 0.5" },
    { name: "GET mix, unmetered plan", requests: mix("unmetered", 2, GETS), connections, goal: ">= 0.7" },
    // At saturation a closed loop of 50 connections waits 50 / throughput on average (Little's law),
    // so p99 there measures throughput; this phase offers a fixed rate both servers keep up with.
    {
      name: `GET mix, unmetered, ${rate} req/s offered`,
      requests: mix("unmetered", 2, GETS),
      connections,
      goal: "p99 <= 25 ms",
      rate,
    },
    {
      name: "all plans, GETs + batches",
      requests: blend(
        [
          { list: mix("capped", 3), share: 25 },
          { list: mix("unmetered", 4), share: 25 },
          { list: mix("enterprise", 5), share: 15 },
          { list: mix("pro", 6), share: 15 },
          { list: mix("starter", 7), share: 10 },
          { list: mix("free", 8), share: 7 },
          { list: mix("exhausted", 9), share: 3 },
        ],
        20_000,
        10,
      ),
      connections,
    },
    { name: "intelligence batch, 100 items", requests: [batch100("capped")], connections, goal: ">= 0.3" },
    {
      name: "  same, idempotent replays",
      requests: [batch100("solo", "bench-replay")],
      connections,
      goal: ">= 0.6",
      prime: true,
    },
    {
      name: "GET /games/game/:id, 1 connection",
      requests: mix("solo", 11, ["gameById"]),
      connections: 1,
      goal: "p50 <= 2 ms",
    },
  ].filter((phase) => !only || only.test(phase.name));
};

const main = async () => {
  if (!adminUrl) throw new Error("Set BENCH_DATABASE_URL or TEST_DATABASE_URL (a PostgreSQL admin URL)");
  if (!redisUrl)
    throw new Error("Set BENCH_REDIS_URL or TEST_REDIS_URL (the server counts its windows in Redis)");
  const scratch = await createBenchDatabase("gmi_traffic");
  const { name, url: databaseUrl } = scratch;
  const redisPrefix = `gmi:bench:${name}:`;
  const work = mkdtempSync(path.join(tmpdir(), "gmi-traffic-"));
  const redis = new Redis(redisUrl);
  const stats = new pg.Client({ connectionString: adminUrl });
  await stats.connect();
  let server: ServerChild | null = null;
  let twin: ChildProcess | null = null;
  try {
    const started = performance.now();
    await migrate(databaseUrl);
    const db = await openDatabase({ databaseUrl, dataDir: "" });
    const keys = new Map<string, string[]>();
    let catalog: Catalog;
    try {
      await ensurePlans(db.pool);
      await seedDemo(db, DEFAULT_SCORING, { scale: "small", seed: 1, endDate: "2026-11-20", rollupDays: 1 });
      await db.pool.query("ANALYZE");
      for (const plan of CUSTOM_PLANS) {
        await db.pool.query(
          `INSERT INTO plans (slug, name, rate_limit_per_minute, rate_limit_per_day, monthly_quota, max_batch_size,
             max_page_size, overage) VALUES ($1, $2, $3, $4, $5, 250, 200, $6)`,
          [
            plan.slug,
            plan.name,
            LARGE.rate_limit_per_minute,
            LARGE.rate_limit_per_day,
            plan.monthly_quota,
            plan.overage,
          ],
        );
      }
      const month = billingMonth(Date.now());
      for (const ring of RINGS) {
        const list: string[] = [];
        for (let o = 0; o < ring.orgs; o++) {
          const org = await createOrganization(db.pool, {
            name: `${ring.ring} ${o}`,
            plan: ring.plan as PlanSlug,
          });
          if (ring.ring === "exhausted") {
            await db.pool.query(
              "INSERT INTO usage_months (organization_id, month, used) VALUES ($1, $2, $3)",
              [org.id, month, PLANS.free.monthly_quota],
            );
          }
          for (let k = 0; k < ring.keysPerOrg; k++) {
            const issued = await issueApiKey(db.pool, {
              organizationId: org.id,
              clientId: null,
              name: `${ring.ring} ${o}.${k}`,
              scopes: [...SCOPES],
              expiresAt: null,
            });
            list.push(issued.key);
          }
        }
        keys.set(ring.ring, list);
      }
      const games = await db.pool.query<{ id: number; slug: string; title: string }>(
        "SELECT id, marketplace_game_name AS slug, display_game_name AS title FROM games WHERE enabled ORDER BY id",
      );
      const consoles = await db.pool.query<{ id: number }>("SELECT id FROM consoles ORDER BY id");
      // Popularity follows a shuffled order, not id order: hot games are spread over the catalog.
      const shuffled = [...games.rows].sort(
        (a, b) => ((a.id * 2_654_435_761) % 1_000) - ((b.id * 2_654_435_761) % 1_000),
      );
      catalog = {
        gameIds: shuffled.map((g) => g.id),
        slugs: games.rows.map((g) => g.slug),
        titles: games.rows.map((g) => g.title),
        consoleIds: consoles.rows.map((c) => c.id),
      };
    } finally {
      await db.close();
    }
    const seededIn = (performance.now() - started) / 1000;

    // Every statement of the server into PostgreSQL's log (prefix user@database), to see what a mix sends.
    if (env.BENCH_LOG_STATEMENTS) await adminQuery(`ALTER DATABASE ${name} SET log_statement = 'all'`);
    server = await startServer({
      // Another tree's server (relative to apps/server), for a before/after in one sitting.
      entry: env.BENCH_SERVER_ENTRY,
      databaseUrl,
      redisUrl: redisUrl ?? "",
      redisPrefix,
      cpuProfileDir: env.BENCH_CPU_PROF,
    });
    const phases = phasesOf(catalog);

    // Every distinct answer, asked once from the server with a key of the unmetered ring (no
    // Idempotency-Key: recording must not store the records the phases will create).
    const recorder = keys.get("unmetered")?.[0] ?? "";
    const answers: Answer[] = [];
    const answerIndex = new Map<string, number>();
    for (const phase of phases) {
      for (const request of phase.requests) {
        if (answerIndex.has(request.answer)) continue;
        const response = await fetch(`${server.url}${request.path}`, {
          method: request.method,
          headers: {
            authorization: `Bearer ${recorder}`,
            ...(request.body ? { "content-type": "application/json" } : {}),
          },
          ...(request.body ? { body: request.body } : {}),
        });
        if (response.status >= 500)
          throw new Error(`${request.path}: ${response.status} ${await response.text()}`);
        answerIndex.set(request.answer, answers.length);
        answers.push({ status: response.status, body: await response.json() });
      }
    }
    const answersFile = path.join(work, "answers.json");
    writeFileSync(answersFile, JSON.stringify(answers));
    const started2 = await startTwin(entry, answersFile);
    twin = started2.child;
    const twinUrl = started2.url;

    const cursor = new Map<string, number>();
    const toLoad = (request: BenchRequest): LoadRequest => {
      const ring = keys.get(request.ring) ?? [];
      const n = cursor.get(request.ring) ?? 0;
      cursor.set(request.ring, n + 1);
      return {
        method: request.method,
        path: request.path,
        headers: {
          authorization: `Bearer ${ring[n % ring.length]}`,
          [ANSWER_HEADER]: String(answerIndex.get(request.answer)),
          ...(request.body ? { "content-type": "application/json" } : {}),
          ...(request.idempotencyKey ? { "idempotency-key": request.idempotencyKey } : {}),
        },
        ...(request.body ? { body: request.body } : {}),
      };
    };

    const transactions = async () =>
      Number(
        (
          await stats.query<{ n: string }>(
            "SELECT (xact_commit + xact_rollback)::text AS n FROM pg_stat_database WHERE datname = $1",
            [name],
          )
        ).rows[0]?.n ?? 0,
      );
    // Backends report their statistics at most once a second, when idle.
    const settle = () => new Promise((resolve) => setTimeout(resolve, 1_500));

    console.log(
      `\nbench:traffic: seeded in ${seededIn.toFixed(0)} s; ${answers.length} distinct answers; ` +
        `${duration} s per phase and server, autocannon in its own process; server: ${env.BENCH_SERVER_ENTRY ?? "src/main.ts"}, ` +
        `NODE_ENV=production, Redis windows, PostgreSQL ${name}\n`,
    );
    const header = [
      "phase".padEnd(36),
      "req/s".padStart(7),
      "p50".padStart(6),
      "p99".padStart(6),
      "cpu us".padStart(7),
      "pg/req".padStart(7),
      "| bare".padStart(8),
      "p50".padStart(6),
      "p99".padStart(6),
      "cpu us".padStart(7),
      "| ratio".padStart(8),
      "goal".padStart(13),
      "  statuses (app)",
    ].join(" ");
    console.log(`${header}\n${"-".repeat(header.length)}`);
    for (const phase of phases) {
      const file = path.join(work, `phase-${phases.indexOf(phase)}.json`);
      const load = phase.requests.map(toLoad);
      writeFileSync(file, JSON.stringify(load));
      const first = load[0];
      if (phase.prime && first) {
        const { method, headers, body } = first;
        await fetch(`${server.url}${first.path}`, { method, headers, ...(body ? { body } : {}) });
      }
      const measure = async (target: string, pid: number) => {
        const cpuBefore = processCpuMs(pid);
        const result: LoadResult = await runLoad(entry, {
          url: target,
          file,
          connections: phase.connections,
          duration,
          ...(phase.rate ? { rate: phase.rate } : {}),
        });
        return { result, cpuUs: ((processCpuMs(pid) - cpuBefore) * 1000) / Math.max(1, result.total) };
      };
      const bare = await measure(twinUrl, twin.pid ?? 0);
      // The server as it runs in steady state: JIT-compiled, its caches and quota leases warm. Right
      // before its measurement: leases of organizations idle while the twin was measured are given back.
      if (warmup > 0)
        await runLoad(entry, {
          url: server.url,
          file,
          connections: phase.connections,
          duration: warmup,
          ...(phase.rate ? { rate: phase.rate } : {}),
        });
      await settle();
      const xactBefore = await transactions();
      const app = await measure(server.url, server.child.pid ?? 0);
      await settle();
      const pgPerRequest = ((await transactions()) - xactBefore) / Math.max(1, app.result.total);
      console.log(
        [
          phase.name.padEnd(36),
          app.result.rps.toFixed(0).padStart(7),
          app.result.p50.toFixed(1).padStart(6),
          app.result.p99.toFixed(1).padStart(6),
          app.cpuUs.toFixed(0).padStart(7),
          pgPerRequest.toFixed(3).padStart(7),
          `| ${bare.result.rps.toFixed(0)}`.padStart(8),
          bare.result.p50.toFixed(1).padStart(6),
          bare.result.p99.toFixed(1).padStart(6),
          bare.cpuUs.toFixed(0).padStart(7),
          `| ${(app.result.rps / bare.result.rps).toFixed(2)}`.padStart(8),
          (phase.goal ?? "").padStart(13),
          ` ${statusShares(app.result)}`,
        ].join(" "),
      );
    }
    console.log(
      "\nreq/s over the phase; p50/p99 in ms; cpu us: the server process's CPU time (user + system, " +
        "/proc/<pid>/stat) per answered request; pg/req: PostgreSQL transactions (one per statement " +
        "outside a transaction block: round trips) per request, from pg_stat_database; ratio: app " +
        "req/s / bare twin req/s on the same requests.",
    );
    await unknownKeyPhases(
      {
        entry,
        work,
        databaseUrl,
        redisUrl: redisUrl ?? "",
        redisPrefix,
        transactions,
        settle,
        duration,
        warmup,
        connections,
      },
      only,
    );
  } finally {
    twin?.kill();
    await server?.stop();
    await stats.end();
    await deleteKeys(redis, redisPrefix);
    redis.disconnect();
    rmSync(work, { recursive: true, force: true });
    await scratch.drop();
  }
};

benchEntry(main);
