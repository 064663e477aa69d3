import type { PlanSlug } from "@gmi/contract";
import { PLAN_SLUGS, SCOPES } from "@gmi/contract";
import { Redis } from "ioredis";
import { buildApp, createLogger } from "./app.js";
import { systemClock } from "./clock.js";
import { ConfigError, loadConfig, scoringOf } from "./config.js";
import { countOrganizations, createOrganization, ensurePlans } from "./data/accounts.js";
import { countGames } from "./data/catalog.js";
import { issueApiKey } from "./data/keys.js";
import { type Sql, withReadTimeout } from "./data/sql.js";
import { standbyName, watchStandbys } from "./data/standbys.js";
import { migrate, pendingMigrations } from "./db/migrate.js";
import { EmbeddedDatabaseBusy, openDatabase } from "./db/open.js";
import { seedDemo } from "./demo/seed.js";
import { addDays, dayOf, todayOf } from "./domain/analytics/windows.js";
import { redisBackedLimiter } from "./metering/failover-windows.js";
import { leasedLimiterStore } from "./metering/leased-windows.js";
import { pgUsageStore } from "./metering/postgres-quota.js";
import { memoryLimiterStore } from "./metering/window-store.js";
import type { ReadinessCheck } from "./plugins/health.js";
import { createMetrics, databaseMetricsSources } from "./plugins/metrics.js";
import { scheduledRollup, startRollupScheduler } from "./rollup/scheduler.js";
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

  // Where a start's time goes (logged once listening): each phase's wall time, and the CPU time
  // of the whole start, which says how much of it was this machine being busy.
  const phases: Record<string, number> = {};
  let phaseStart = 0; // performance.now() counts from the process start
  const phaseDone = (name: string) => {
    const now = performance.now();
    phases[`${name}_ms`] = Math.round(now - phaseStart);
    phaseStart = now;
  };
  phaseDone("boot");
  const db = await openDatabase({
    databaseUrl: config.databaseUrl,
    dataDir: config.dataDir,
    role: "server",
    command: "the GMI server",
    keepIdle: true,
  });
  if (db.ownership?.recoveredStale) {
    logger.warn({ dataDir: config.dataDir }, "cleared the embedded database's lock left by a killed process");
  }
  phaseDone("open_database");
  if (db.embedded) {
    // The embedded database is ours alone: bring it up to date without ceremony (the migration
    // engine is only loaded when something is pending).
    if ((await pendingMigrations(db.url)).length > 0) {
      const { applied } = await migrate(db.url);
      logger.info({ applied }, "migrations applied to the embedded database");
    }
  } else {
    const pending = await pendingMigrations(db.url);
    if (pending.length) {
      await db.close();
      throw new ConfigError(
        `The database has ${pending.length} pending migration(s) (${pending.join(", ")}): run \`${config.cliName} migrate\` first`,
      );
    }
  }
  await ensurePlans(db.pool);
  phaseDone("migrations");
  // A production server never invents data or keys: operators import and create them (docs/operations.md).
  const demo = config.nodeEnv !== "production";
  if (demo && (await countGames(db.pool)) === 0) {
    say(
      "Empty catalog: generating the demo marketplace (catalog, 90 days of events, the latest date rolled up)...",
    );
    // Only the latest date is rolled up: it is what every endpoint serves by default, and each
    // further date would add about a second to the first start (`gmi rollup --days 30` adds them).
    const seeded = await seedDemo(db, scoringOf(config.analytics), {
      scale: "small",
      seed: 1,
      endDate: addDays(dayOf(new Date()), -1),
      rollupDays: 1,
    });
    logger.info({ events: seeded.events, dates: seeded.computed }, "demo marketplace loaded");
  }
  phaseDone("demo_seed");
  const demoKeys = demo ? await createDemoAccounts(db.pool) : null;

  // Auto-pipelining: the window checks of requests arriving together go out in one write (one
  // system call instead of one per request, the dearest part of a check under load: bench:traffic).
  const redis = config.redisUrl
    ? new Redis(config.redisUrl, { maxRetriesPerRequest: 2, enableAutoPipelining: true })
    : null;
  // Redis down: fail open to this replica's windows (docs/internals/outages.md, "Redis down"). Busy
  // organizations are charged from leases of window units, not a Redis call per request.
  const limiter = redis
    ? leasedLimiterStore(redisBackedLimiter(redis, logger, config.redisKeyPrefix), {
        flushMs: config.usageFlushMs,
        onError: (error) => logger.warn({ err: error }, "rate-window lease give-back failed"),
      })
    : memoryLimiterStore();
  // The embedded database is one session shared with `gmi` commands: a request there waits its
  // turn behind an import instead of failing (nor does it time out connecting: db/open.ts).
  const databaseWaitMs = db.embedded ? 0 : config.databaseWaitMs;
  const usage = pgUsageStore(db.pool, {
    flushMs: config.usageFlushMs,
    waitMs: databaseWaitMs,
    onError: (error) => logger.error({ err: error }, "usage flush failed; retrying at the next flush"),
  });
  // Read standbys (DATABASE_READ_URL): pools of their own, checked every DATABASE_READ_CHECK_MS.
  const standbyDatabases = await Promise.all(
    config.standbys.urls.map((url) => openDatabase({ databaseUrl: url, dataDir: "", keepIdle: true })),
  );
  const standbys =
    standbyDatabases.length > 0
      ? watchStandbys(
          withReadTimeout(db.pool, databaseWaitMs),
          standbyDatabases.map((standby, i) => ({
            name: standbyName(config.standbys.urls[i] ?? ""),
            sql: withReadTimeout(standby.pool, databaseWaitMs),
          })),
          {
            clock: systemClock,
            checkMs: config.standbys.checkMs,
            maxLagMs: config.standbys.maxLagMs,
            onError: (error) => logger.warn({ err: error }, "standby check: primary position unread"),
          },
        )
      : undefined;
  const readiness: ReadinessCheck[] = [{ name: "database", check: () => db.pool.query("SELECT 1") }];
  if (redis) readiness.push({ name: "redis", required: false, check: () => redis.ping() });
  // Built here rather than by the app, so that the rollup scheduler reports its runs to the same registry.
  const metrics = createMetrics(databaseMetricsSources(db.pool));
  const app = await buildApp({
    config,
    sql: db.pool,
    logger,
    limiter,
    usage,
    readiness,
    metrics,
    readTimeoutMs: databaseWaitMs,
    ...(standbys ? { standbys } : {}),
  });
  const baseUrl = await listen(app, config);
  phaseDone("app_and_listen");
  const cpu = process.cpuUsage();
  logger.info(
    {
      ...phases,
      total_ms: Math.round(performance.now()),
      cpu_ms: Math.round((cpu.user + cpu.system) / 1000),
    },
    "started",
  );

  // `gmi` commands started from now on use this server's embedded database (db/open.ts).
  db.ownership?.update({ state: "ready", httpUrl: baseUrl });
  const cli = config.cliName;

  const scoring = scoringOf(config.analytics);
  const scheduler = startRollupScheduler(
    config.analytics.rollupSchedule,
    systemClock,
    async () => {
      const started = performance.now();
      try {
        const run = await scheduledRollup(db, scoring, todayOf(systemClock));
        metrics.observeRollup(performance.now() - started, "success");
        logger.info(
          { dates: run.computed, skipped_without_events: run.withoutEvents },
          "scheduled rollup done",
        );
      } catch (error) {
        metrics.observeRollup(performance.now() - started, "failure");
        throw error;
      }
    },
    (error) => logger.error({ err: error }, "scheduled rollup failed"),
  );

  // Before the banner: whoever reads it (a person, a test, a supervisor) may stop the server at once.
  closeOnSignals(app, async () => {
    await scheduler.stop();
    await usage.close();
    await limiter.close();
    await redis?.quit();
    standbys?.close();
    for (const standby of standbyDatabases) await standby.close();
    await db.close();
  });

  say();
  say(`GMI API listening on ${baseUrl}`);
  say(`  Seller dashboard: ${baseUrl}/app/`);
  say(`  API reference: ${baseUrl}/docs   (OpenAPI document: ${baseUrl}/api/v1/openapi.json)`);
  if (db.embedded)
    say(`  Database: embedded, under ${config.dataDir}; \`${cli} ...\` commands share it while this runs.`);
  if (!redis) say("Rate limits are counted in this process (set REDIS_URL to share them between servers).");
  if (demoKeys) {
    say("Demo API keys (shown once; all scopes):");
    for (const { plan, key } of demoKeys) say(`  ${plan.padEnd(10)} ${key}`);
    say(`Try: curl -H "Authorization: Bearer ${demoKeys[0]?.key}" ${baseUrl}/api/v1/games/titles`);
    say(
      `History charts need earlier dates: \`${cli} rollup --days 30\` computes them (about a second each).`,
    );
  } else {
    say(
      `Create an API key with: ${cli} keys create --org <id> --scopes games.read,intelligence.read,demand-intent.read`,
    );
    say(
      `(list organizations with \`${cli} orgs list\`; create one with \`${cli} orgs create --name N --plan free\`)`,
    );
  }
  say();
};

main().catch((error: unknown) => {
  if (error instanceof ConfigError || error instanceof EmbeddedDatabaseBusy) {
    process.stderr.write(`${error.message}\n`);
  } else {
    process.stderr.write(
      `Start-up failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
    );
  }
  process.exit(1);
});
