/**
 * `pnpm bench:batch-cpu`: CPU time per batch request inside one process, the app against a bare
 * Fastify route answering the same body, both through `inject` (no sockets, no load generator).
 * On a shared machine req/s mostly measures the neighbours; CPU per request of the server's own
 * work does not, so this is the figure to compare before and after a change to the batch path.
 * Cases: the 100-item intelligence batch without a key, the same with a fresh Idempotency-Key each
 * time (claim, payment record, store) and its replays (one key). Memory limiter, PostgreSQL usage.
 *
 * Env: BENCH_DATABASE_URL or TEST_DATABASE_URL (admin URL; a scratch database is created and
 * dropped), BENCH_REQUESTS (per case and round, default 400), BENCH_ROUNDS (default 3; the median
 * is printed), BENCH_ONLY (a regular expression over the cases' names; the bare twin always runs).
 */
import { randomBytes } from "node:crypto";
import { openSync } from "node:fs";
import Fastify, { type FastifyInstance } from "fastify";
import { buildApp, createLogger } from "../src/app.js";
import { loadConfig } from "../src/config.js";
import { ensurePlans } from "../src/data/accounts.js";
import { migrate } from "../src/db/migrate.js";
import { openDatabase } from "../src/db/open.js";
import { seedDemo } from "../src/demo/seed.js";
import { DEFAULT_SCORING } from "../src/domain/analytics/weights.js";
import { batchedLineWriter } from "../src/logging/line-writer.js";
import { pgUsageStore } from "../src/metering/postgres-quota.js";
import { memoryLimiterStore } from "../src/metering/window-store.js";
import { adminUrl, createBenchDatabase } from "./admin.js";
import { benchKey } from "./bench-key.js";

const env = process.env;
const perRound = Number(env.BENCH_REQUESTS ?? 400);
const rounds = Number(env.BENCH_ROUNDS ?? 3);
const only = env.BENCH_ONLY ? new RegExp(env.BENCH_ONLY) : null;
const BATCH_100 = JSON.stringify({
  requests: Array.from({ length: 100 }, (_, i) => ({ game_id: 1001 + i })),
});
const URL_ = "/api/v1/intelligence/batch";

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;

/** CPU microseconds per request over `count` sequential injections (after one unmeasured). */
const cpuPerRequest = async (
  app: FastifyInstance,
  count: number,
  headers: (i: number) => Record<string, string>,
) => {
  const send = async (i: number) => {
    const response = await app.inject({ method: "POST", url: URL_, headers: headers(i), payload: BATCH_100 });
    if (response.statusCode !== 200) throw new Error(`${response.statusCode} ${response.body.slice(0, 200)}`);
  };
  await send(-1);
  const before = process.cpuUsage();
  for (let i = 0; i < count; i++) await send(i);
  const used = process.cpuUsage(before);
  return (used.user + used.system) / count;
};

const main = async () => {
  if (!adminUrl) throw new Error("Set BENCH_DATABASE_URL or TEST_DATABASE_URL (a PostgreSQL admin URL)");
  const scratch = await createBenchDatabase("gmi_batch_cpu");
  await migrate(scratch.url);
  const db = await openDatabase({ databaseUrl: scratch.url, dataDir: "" });
  try {
    await ensurePlans(db.pool);
    await seedDemo(db, DEFAULT_SCORING, { scale: "small", seed: 1, endDate: "2026-11-20", rollupDays: 1 });
    await db.pool.query("ANALYZE");
    const key = await benchKey(db.pool, 1_000_000_000);
    const config = loadConfig({
      NODE_ENV: "production",
      CURSOR_SECRET: randomBytes(32).toString("hex"),
      PORT: "0",
    });
    const usage = pgUsageStore(db.pool, { flushMs: 1_000 });
    const logger = createLogger(config, batchedLineWriter(openSync("/dev/null", "w")));
    const app = await buildApp({ config, sql: db.pool, logger, limiter: memoryLimiterStore(), usage });
    await app.ready();

    const base = { authorization: `Bearer ${key}`, "content-type": "application/json" };
    const first = await app.inject({ method: "POST", url: URL_, headers: base, payload: BATCH_100 });
    const answer: unknown = first.json();
    const bare = Fastify();
    bare.post(URL_, async (_request, reply) => reply.send(answer));
    await bare.ready();

    const run = Date.now().toString(36);
    const cases: Array<[string, FastifyInstance, (i: number) => Record<string, string>]> = [
      ["bare twin (same body)", bare, () => ({ "content-type": "application/json" })],
      ["100 items, no key", app, () => base],
      [
        "100 items, a new key each",
        app,
        (i) => ({ ...base, "idempotency-key": `${run}-${Math.random()}-${i}` }),
      ],
      ["100 items, replays of one key", app, () => ({ ...base, "idempotency-key": `${run}-replay` })],
    ];
    const chosen = cases.filter(([name], index) => index === 0 || !only || only.test(name));
    const figures = new Map<string, number[]>(chosen.map(([name]) => [name, []]));
    for (let round = 0; round < rounds; round++) {
      for (const [name, target, headers] of chosen) {
        figures.get(name)?.push(await cpuPerRequest(target, perRound, headers));
      }
    }
    console.log(`\n${rounds} rounds x ${perRound} requests, inject, CPU us per request (median)\n`);
    for (const [name, values] of figures)
      console.log(`${name.padEnd(34)} ${median(values).toFixed(0).padStart(6)}`);
    await app.close();
    await bare.close();
    await usage.close();
  } finally {
    await db.close();
    await scratch.drop();
  }
};

await main();
