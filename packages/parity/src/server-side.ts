import { randomUUID } from "node:crypto";
import type { AddressInfo } from "node:net";
import { SCOPES } from "@gmi/contract";
import { manualClock } from "@gmi/server/src/clock.js";
import { scoringOf } from "@gmi/server/src/config.js";
import {
  createClient,
  createOrganization,
  ensurePlans,
  setClientStatus,
  setOrganizationStatus,
} from "@gmi/server/src/data/accounts.js";
import { issueApiKey, revokeApiKey } from "@gmi/server/src/data/keys.js";
import { importLines } from "@gmi/server/src/jobs/import.js";
import { redisBackedLimiter } from "@gmi/server/src/metering/failover-windows.js";
import { leasedLimiterStore } from "@gmi/server/src/metering/leased-windows.js";
import type { LimiterStore } from "@gmi/server/src/metering/window-store.js";
import { rollupDates } from "@gmi/server/src/rollup/rollup-dates.js";
import { startTestApp, type TestApp, testConfig } from "@gmi/server/test/helpers/app.js";
import { createTestDatabase, type TestDatabase } from "@gmi/server/test/helpers/database.js";
import { Redis } from "ioredis";
import pino from "pino";
import { fixtureLines, LATEST_DATE, NOW, ROLLED_UP_DATES } from "./fixture.js";
import type { Account, Answer, KeySpec, Req, Session, Side } from "./scenario.js";
import { sendOver } from "./send.js";

/** The limiter as the app gets it, with a lever: the next batch's charge waits until released. */
const holdableLimiter = (inner: LimiterStore) => {
  let armed: { reached: () => void; gate: Promise<void> } | null = null;
  const store: LimiterStore = {
    // A held batch must reach `consume`: no charge from a lease in memory while armed.
    consumeHeld: (windows, cost) => (armed && cost > 1 ? null : (inner.consumeHeld?.(windows, cost) ?? null)),
    peek: (windows, now) => inner.peek(windows, now),
    refund: (windows, cost) => inner.refund(windows, cost),
    close: () => inner.close(),
    async consume(windows, cost, now, extraUpTo) {
      // Only a batch charges more than one unit at once; the batch admission claims the key first.
      if (armed && cost > 1) {
        const { reached, gate } = armed;
        armed = null;
        reached();
        await gate;
      }
      return inner.consume(windows, cost, now, extraUpTo);
    },
  };
  const hold = () => {
    let release = () => {};
    let reached = () => {};
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const reachedPromise = new Promise<void>((resolve) => {
      reached = resolve;
    });
    armed = { reached, gate };
    return { reached: reachedPromise, release };
  };
  return { store, hold };
};

/**
 * The real server: the Fastify app of apps/server on a fresh PostgreSQL database of its own (under
 * TEST_DATABASE_URL), its rate windows in Redis (TEST_REDIS_URL) as in production, the fixture
 * imported with the server's import code and the dates rolled up, its clock frozen at NOW.
 */
export const startServerSide = async (): Promise<Side> => {
  const redisUrl = process.env.TEST_REDIS_URL;
  if (!process.env.TEST_DATABASE_URL || !redisUrl) {
    throw new Error("the parity suite needs TEST_DATABASE_URL and TEST_REDIS_URL (see README, Tests)");
  }
  const clock = manualClock(NOW);
  const database: TestDatabase = await createTestDatabase();
  const sql = database.db.pool;
  await ensurePlans(sql);
  const report = await importLines(database.db, fixtureLines(), undefined, { clock, maxErrors: 0 });
  if (report.rejected > 0) throw new Error(`fixture lines refused: ${JSON.stringify(report.errors)}`);
  await rollupDates(
    database.db,
    { end: LATEST_DATE, days: ROLLED_UP_DATES.length, force: true, today: LATEST_DATE },
    // The scoring the app is configured with (the defaults of config.ts).
    scoringOf(testConfig().analytics),
  );

  const prefix = `gmi:parity:${randomUUID()}:`;
  const redis = new Redis(redisUrl, { maxRetriesPerRequest: 2 });
  const leased = leasedLimiterStore(redisBackedLimiter(redis, pino({ level: "silent" }), prefix), {
    flushMs: 3_600_000,
    now: () => clock.now(),
  });
  const limiter = holdableLimiter(leased);
  const served: TestApp = await startTestApp(sql, {
    clock,
    limiter: limiter.store,
    env: { CORS_ORIGINS: "*" },
  });
  await served.app.listen({ host: "127.0.0.1", port: 0 });
  const { port } = served.app.server.address() as AddressInfo;
  const baseUrl = `http://127.0.0.1:${port}`;

  /** A fresh organization (and API client) for one key of a scenario: its windows, usage and records are its own. */
  const issue = async (name: string, spec: KeySpec): Promise<{ token: string; account: Account }> => {
    const state = spec.state ?? "active";
    const organization = await createOrganization(sql, { name: `Parity ${name}`, plan: spec.plan ?? "pro" });
    const client =
      state === "suspended-client"
        ? await createClient(sql, { organizationId: organization.id, name })
        : null;
    const issued = await issueApiKey(sql, {
      organizationId: organization.id,
      clientId: client?.id ?? null,
      name,
      scopes: spec.scopes ?? [...SCOPES],
      expiresAt: state === "expired" ? new Date(clock.now() - 1_000) : null,
    });
    if (state === "revoked") await revokeApiKey(sql, issued.id, new Date(clock.now() - 1_000));
    if (state === "suspended-organization") await setOrganizationStatus(sql, organization.id, "suspended");
    if (client) await setClientStatus(sql, client.id, "suspended");
    if (spec.monthUsed) {
      await sql.query("INSERT INTO usage_months (organization_id, month, used) VALUES ($1, $2, $3)", [
        organization.id,
        new Date(clock.now()).toISOString().slice(0, 7),
        spec.monthUsed,
      ]);
    }
    return {
      token: issued.key,
      account: { organization: { id: organization.id, name: organization.name }, keyName: name },
    };
  };

  return {
    name: "server",
    async open(keys): Promise<Session> {
      const tokens: Record<string, string> = {};
      const accounts: Record<string, Account> = {};
      for (const [name, spec] of Object.entries(keys)) {
        const issued = await issue(name, spec);
        tokens[name] = issued.token;
        accounts[name] = issued.account;
      }
      const started = clock.now();
      return {
        tokens,
        accounts,
        send: (request: Req): Promise<Answer> => sendOver(baseUrl, tokens, request),
        holdNextBatch: limiter.hold,
        advance: (ms) => clock.advance(ms),
        // The next scenario starts at the same instant (its keys are new organizations).
        end: async () => clock.set(started),
      };
    },
    async close() {
      await served.close();
      await leased.close();
      const stale = await redis.keys(`${prefix}*`);
      if (stale.length) await redis.del(...stale);
      redis.disconnect();
      await database.drop();
    },
  };
};
