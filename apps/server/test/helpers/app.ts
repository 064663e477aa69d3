import type { FastifyInstance } from "fastify";
import { buildApp, createLogger } from "../../src/app.js";
import type { Clock } from "../../src/clock.js";
import { systemClock } from "../../src/clock.js";
import type { Config } from "../../src/config.js";
import { loadConfig } from "../../src/config.js";
import type { Sql } from "../../src/data/sql.js";
import type { Standbys } from "../../src/data/standbys.js";
import { pgUsageStore } from "../../src/metering/postgres-quota.js";
import type { UsageStore } from "../../src/metering/quota-store.js";
import type { LimiterStore } from "../../src/metering/window-store.js";
import { memoryLimiterStore } from "../../src/metering/window-store.js";
import type { ReadinessCheck } from "../../src/plugins/health.js";
import { scannedAppLog } from "./log-capture.js";

export const testConfig = (env: Record<string, string> = {}): Config =>
  loadConfig({
    NODE_ENV: "test",
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? "silent",
    CURSOR_SECRET: "test-cursor-secret-0123456789abcdef",
    AUTH_CACHE_TTL_MS: "0",
    // Every request of a test file comes from one address, and the shared security cases alone fail
    // authentication more than 60 times a minute: the tests of the limit turn it on.
    AUTH_FAILURES_PER_MINUTE: "0",
    ...env,
  });

export type TestApp = {
  app: FastifyInstance;
  usage: UsageStore;
  limiter: LimiterStore;
  close(): Promise<void>;
};

/** The real app on a test database; memory limiter unless one is given; usage in PostgreSQL. */
export const startTestApp = async (
  sql: Sql,
  options: {
    env?: Record<string, string>;
    clock?: Clock;
    limiter?: LimiterStore;
    readiness?: ReadinessCheck[];
    /** How long a request waits for PostgreSQL (DATABASE_WAIT_MS); absent: as long as it takes. */
    databaseWaitMs?: number;
    /** Runs before ready(): a test may add routes (e.g. one that throws). */
    extend?: (app: FastifyInstance) => void;
    /** Read standbys (data/standbys.ts). */
    standbys?: Standbys;
  } = {},
): Promise<TestApp> => {
  const config = testConfig(options.env);
  const limiter = options.limiter ?? memoryLimiterStore();
  const usage = pgUsageStore(sql, { flushMs: config.usageFlushMs, waitMs: options.databaseWaitMs ?? 0 });
  // Everything the app logs, at the most verbose level, for the run's key-material scan (log-scan.ts);
  // a developer who sets TEST_LOG_LEVEL reads it on standard output instead.
  const scanned = process.env.TEST_LOG_LEVEL ? null : scannedAppLog();
  const app = await buildApp({
    config,
    sql,
    logger: scanned ? createLogger({ logLevel: "trace" }, scanned) : createLogger(config),
    limiter,
    usage,
    clock: options.clock ?? systemClock,
    ...(options.readiness ? { readiness: options.readiness } : {}),
    ...(options.databaseWaitMs ? { readTimeoutMs: options.databaseWaitMs } : {}),
    ...(options.standbys ? { standbys: options.standbys } : {}),
  });
  options.extend?.(app);
  await app.ready();
  return {
    app,
    usage,
    limiter,
    close: async () => {
      await app.close();
      await usage.close();
    },
  };
};

export const bearer = (key: string) => ({ authorization: `Bearer ${key}` });
