import type { PlanSlug } from "@gmi/contract";
import { PLAN_SLUGS, SCOPES } from "@gmi/contract";
import { Redis } from "ioredis";
import { scoringOf } from "./analytics/scoring.js";
import { todayOf } from "./analytics/snapshot.js";
import { buildApp, createLogger } from "./app.js";
import { systemClock } from "./clock.js";
import { ConfigError, loadConfig } from "./config.js";
import { countOrganizations, createOrganization, ensurePlans } from "./data/accounts.js";
import { countGames } from "./data/catalog.js";
import { issueApiKey } from "./data/keys.js";
import { redisLimiterStore } from "./data/redis-limiter.js";
import type { Sql } from "./data/sql.js";
import { pgUsageStore } from "./data/usage.js";
import { migrate, pendingMigrations } from "./db/migrate.js";
import { openDatabase } from "./db/open.js";
import { addDays, dayOf } from "./domain/analytics/windows.js";
import { memoryLimiterStore } from "./domain/limits/store.js";
import { rollupDates } from "./jobs/rollup.js";
import { startRollupScheduler } from "./jobs/rollup-scheduler.js";
import { seedDemo } from "./jobs/seed-demo.js";
import type { ReadinessCheck } from "./plugins/health.js";
import { createMetrics, databaseMetricsSources } from "./plugins/metrics.js";
import { closeOnSignals, listen } from "./server.js";

const say = (line = "") => process.stdout.write(`${line}\n`);

/** One demo organization and key per plan, only on a database without any organization. */
const createDemoAccounts = async (sql: Sql): Promise<Array<{ plan: PlanSlug; key: string }> | null> => {
  if ((await countOrganizations(sql)) > 0) return null;
  const keys: Array<{ plan: PlanSlug; key: string }> = [];
  for (const plan of PLAN_SLUGS) {
    const org = await createOrganization(sql, { name: `Demo ${plan}`, plan });
    const issued = await issueApiKey(sql, {
      organizationId: org.id,
      clientId: null,
      name: "demo",
      scopes: [...SCOPES],
      expiresAt: null,
    });
    keys.push({ plan, key: issued.key });
  }
  return keys;
};

const main = async () => {
  const config = loadConfig();
  const logger = createLogger(config);
  for (const warning of config.warnings) logger.warn(warning);

  const db = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
  if (db.embedded) {
    // The embedded database is ours alone: bring it up to date without ceremony.
    const { applied } = await migrate(db.url);
    if (applied.length) logger.info({ applied }, "migrations applied to the embedded database");
  } else {
    const pending = await pendingMigrations(db.url);
    if (pending.length) {
      await db.close();
      throw new ConfigError(
        `The database has ${pending.length} pending migration(s) (${pending.join(", ")}): run \`pnpm gmi migrate\` first`,
      );
    }
  }
  await ensurePlans(db.pool);
  // A production server never invents data or keys: operators import and create them (docs/operations.md).
  const demo = config.nodeEnv !== "production";
  if (demo && (await countGames(db.pool)) === 0) {
    say("Empty catalog: generating the demo marketplace (catalog, 90 days of events, rollups)...");
    const seeded = await seedDemo(db, scoringOf(config.analytics), {
      scale: "small",
      seed: 1,
      endDate: addDays(dayOf(new Date()), -1),
      rollupDays: 7,
    });
    logger.info({ events: seeded.events, dates: seeded.computed.length }, "demo marketplace loaded");
  }
  const demoKeys = demo ? await createDemoAccounts(db.pool) : null;

  const redis = config.redisUrl ? new Redis(config.redisUrl, { maxRetriesPerRequest: 2 }) : null;
  const limiter = redis ? redisLimiterStore(redis, config.redisKeyPrefix) : memoryLimiterStore();
  const usage = pgUsageStore(db.pool, {
    flushMs: config.usageFlushMs,
    onError: (error) => logger.error({ err: error }, "usage flush failed; retrying at the next flush"),
  });
  const readiness: ReadinessCheck[] = [{ name: "database", check: () => db.pool.query("SELECT 1") }];
  if (redis) readiness.push({ name: "redis", check: () => redis.ping() });
  // Built here rather than by the app, so that the rollup scheduler reports its runs to the same registry.
  const metrics = createMetrics(databaseMetricsSources(db.pool));
  const app = await buildApp({ config, sql: db.pool, logger, limiter, usage, readiness, metrics });
  const baseUrl = await listen(app, config);

  say();
  say(`GMI API listening on ${baseUrl}  (OpenAPI: ${baseUrl}/api/v1/openapi.json)`);
  if (!redis) say("Rate limits are counted in this process (set REDIS_URL to share them between servers).");
  if (demoKeys) {
    say("Demo API keys (shown once; all scopes):");
    for (const { plan, key } of demoKeys) say(`  ${plan.padEnd(10)} ${key}`);
    say(`Try: curl -H "Authorization: Bearer ${demoKeys[0]?.key}" ${baseUrl}/api/v1/games/titles`);
  } else {
    say(
      "Create an API key with: pnpm gmi keys create --org <id> --scopes games.read,intelligence.read,demand-intent.read",
    );
    say(
      "(list organizations' plans with `pnpm gmi plans list`; create one with `pnpm gmi orgs create --name N --plan free`)",
    );
  }
  say();

  const scoring = scoringOf(config.analytics);
  const scheduler = startRollupScheduler(
    config.analytics.rollupSchedule,
    systemClock,
    async () => {
      const started = performance.now();
      try {
        // The latest day again (its events may still have been arriving), then any missing date.
        const today = todayOf(systemClock);
        const latest = await rollupDates(db, { days: 1, force: true, today }, scoring);
        const missing = await rollupDates(db, { days: 30, force: false, today }, scoring);
        metrics.observeRollup(performance.now() - started, "success");
        logger.info({ dates: [...latest, ...missing] }, "scheduled rollup done");
      } catch (error) {
        metrics.observeRollup(performance.now() - started, "failure");
        throw error;
      }
    },
    (error) => logger.error({ err: error }, "scheduled rollup failed"),
  );

  closeOnSignals(app, async () => {
    await scheduler.stop();
    await usage.close();
    await limiter.close();
    await redis?.quit();
    await db.close();
  });
};

main().catch((error: unknown) => {
  if (error instanceof ConfigError) {
    process.stderr.write(`${error.message}\n`);
  } else {
    process.stderr.write(
      `Start-up failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
    );
  }
  process.exit(1);
});
