import { Writable } from "node:stream";
import { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildApp, createLogger } from "../../src/app.js";
import { redisBackedLimiter } from "../../src/metering/failover-windows.js";
import { pgUsageStore } from "../../src/metering/postgres-quota.js";
import { bearer, testConfig } from "../helpers/app.js";
import { useTestDatabase } from "../helpers/setup.js";
import { createTenant, createTestPlan } from "../helpers/tenant.js";
import { canRunRedis, startRedis, waitFor } from "./processes.js";

/**
 * Redis killed under a running app and started again (a redis-server of the test's own): the app
 * fails open to its own windows (docs/internals/outages.md, "Redis down"), logs it once, says so on
 * /readyz, and goes back to Redis by itself.
 */
const db = useTestDatabase();
const lines: Array<{ level: number; msg: string }> = [];
const logSink = new Writable({
  write(chunk, _encoding, done) {
    for (const line of String(chunk).split("\n").filter(Boolean)) lines.push(JSON.parse(line));
    done();
  },
});
let redisServer: Awaited<ReturnType<typeof startRedis>>;
let redis: Redis;
let app: Awaited<ReturnType<typeof buildApp>>;
let usage: ReturnType<typeof pgUsageStore>;
let key: string;

beforeAll(async () => {
  if (!canRunRedis) return;
  redisServer = await startRedis();
  redis = new Redis(redisServer.url, { maxRetriesPerRequest: 2 });
  const config = testConfig({ LOG_LEVEL: "info" });
  const logger = createLogger(config, logSink);
  usage = pgUsageStore(db().pool, { flushMs: config.usageFlushMs });
  app = await buildApp({
    config,
    sql: db().pool,
    logger,
    limiter: redisBackedLimiter(redis, logger),
    usage,
    readiness: [
      { name: "database", check: () => db().pool.query("SELECT 1") },
      { name: "redis", required: false, check: () => redis.ping() },
    ],
  });
  await app.ready();
  const plan = await createTestPlan(db().pool, { perMinute: 100_000, perDay: 1_000_000, quota: null });
  key = (await createTenant(db().pool, { plan })).key;
}, 60_000);
afterAll(async () => {
  await app?.close();
  await usage?.close();
  redis?.disconnect();
  await redisServer?.close();
});

const get = () => app.inject({ url: "/api/v1/games/titles?limit=1", headers: bearer(key) });
const messages = () => lines.map((l) => l.msg);

describe.skipIf(!canRunRedis)("Redis down", () => {
  it("fails open to per-replica windows: no 5xx, one log line, /readyz degraded, and recovers by itself", async () => {
    expect((await get()).statusCode).toBe(200);
    expect((await redis.keys("gmi:rl:*")).length).toBeGreaterThan(0);
    expect((await app.inject({ url: "/readyz" })).json()).toEqual({ status: "ready" });

    await redisServer.stop();
    const started = Date.now();
    const during = await Promise.all(Array.from({ length: 40 }, get));
    expect(during.map((r) => r.statusCode)).toEqual(during.map(() => 200));
    // Still limited, by this replica's own windows.
    expect(during.every((r) => r.headers["x-ratelimit-limit"] === "100000")).toBe(true);
    for (let i = 0; i < 20; i++) expect((await get()).statusCode).toBe(200);
    // Bounded: the shared store is given 1 s, then skipped for a second at a time.
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(messages().filter((m) => m.startsWith("redis unreachable"))).toHaveLength(1);
    const ready = await app.inject({ url: "/readyz" });
    expect(ready.statusCode).toBe(200);
    expect(ready.json()).toEqual({ status: "degraded", degraded: ["redis"] });

    await redisServer.start();
    await waitFor(async () => {
      await get();
      return messages().some((m) => m.startsWith("redis reachable again"));
    });
    // Counting in Redis again.
    await redis.flushall();
    expect((await get()).statusCode).toBe(200);
    expect((await redis.keys("gmi:rl:*")).length).toBeGreaterThan(0);
    expect((await app.inject({ url: "/readyz" })).json()).toEqual({ status: "ready" });
  }, 60_000);
});
