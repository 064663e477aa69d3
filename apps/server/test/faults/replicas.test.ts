import type { ChildProcess } from "node:child_process";
import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { billingMonth } from "../../src/domain/limits/windows.js";
import { bearer } from "../helpers/app.js";
import { seedAnalytics } from "../helpers/batch.js";
import { childOutputScanner } from "../helpers/log-capture.js";
import { startWithinOneMinute } from "../helpers/minute.js";
import { testDatabaseUrl, useTestDatabase } from "../helpers/setup.js";
import { createTenant, createTestPlan } from "../helpers/tenant.js";
import { canRunRedis, startRedis, waitFor } from "./processes.js";

/**
 * The compose shape: two replicas (each the real server, `src/main.ts`, in a process of its own)
 * on one PostgreSQL and one Redis of the test's own. The per-minute limit is exact across them, a
 * keyed batch sent to both at once is processed once, and a replica killed with SIGKILL mid-batch
 * leaves a key that the other serves once the lease lapses, metered once, on a hard-capped plan
 * (Starter) and on one whose units are buffered (Pro).
 */
const db = useTestDatabase();
let redisServer: Awaited<ReturnType<typeof startRedis>>;
const replicas: Array<{ child: ChildProcess; url: string }> = [];
/** Replicas a test kills. */
const doomed: Array<{ child: ChildProcess; url: string }> = [];

const startReplica = (redisUrl: string, env: Record<string, string> = {}) =>
  new Promise<{ child: ChildProcess; url: string }>((resolve, reject) => {
    const child = spawn(process.execPath, ["--import", "tsx", "src/main.ts"], {
      cwd: fileURLToPath(new URL("../..", import.meta.url)),
      env: {
        ...process.env,
        NODE_ENV: "production",
        DATABASE_URL: db().url,
        REDIS_URL: redisUrl,
        PORT: "0",
        HOST: "127.0.0.1",
        LOG_LEVEL: "warn",
        CURSOR_SECRET: "replica-test-cursor-secret-0123456789",
        AUTH_CACHE_TTL_MS: "0",
        RESPONSE_CACHE_TTL_MS: "0",
        ...env,
      },
      stdio: ["ignore", "pipe", "inherit"],
    });
    let out = "";
    const scan = childOutputScanner();
    child.stdout?.on("data", (chunk: Buffer) => {
      out += chunk.toString();
      scan(chunk);
      const match = /listening on (http:\/\/\S+)/.exec(out);
      if (match?.[1]) resolve({ child, url: match[1] });
    });
    child.once("exit", (code) => reject(new Error(`replica exited (${code}) before listening: ${out}`)));
  });

beforeAll(async () => {
  // Two server processes share the database: a PostgreSQL server, not the embedded one.
  if (!canRunRedis || !testDatabaseUrl()) return;
  await seedAnalytics(db());
  redisServer = await startRedis();
  replicas.push(...(await Promise.all([startReplica(redisServer.url), startReplica(redisServer.url)])));
}, 120_000);
afterAll(async () => {
  for (const { child } of [...replicas, ...doomed]) if (child.exitCode === null) child.kill("SIGKILL");
  await redisServer?.close();
});

const replica = (n: number) => {
  const r = replicas[n % replicas.length];
  if (!r) throw new Error("no replica");
  return r;
};
const usedOf = async (organizationId: number) => {
  const { rows } = await db().pool.query<{ used: number }>(
    "SELECT used FROM usage_months WHERE organization_id = $1 AND month = $2",
    [organizationId, billingMonth(Date.now())],
  );
  return Number(rows[0]?.used ?? 0);
};
const BODY = JSON.stringify({ requests: [{ game_id: 101 }, { id: 103 }, { game_id: 105 }] });
const post = (url: string, apiKey: string, idempotencyKey: string, body = BODY) =>
  fetch(`${url}/api/v1/intelligence/batch`, {
    method: "POST",
    headers: { ...bearer(apiKey), "content-type": "application/json", "idempotency-key": idempotencyKey },
    body,
  });
const postBatch = (n: number, apiKey: string, idempotencyKey: string) =>
  post(replica(n).url, apiKey, idempotencyKey);

describe.skipIf(!canRunRedis || !testDatabaseUrl())("two replicas on one PostgreSQL and Redis", () => {
  it("the per-minute limit is exact across them", async () => {
    // Not across a minute boundary, where the window would reset mid-test.
    await startWithinOneMinute(10_000);
    const plan = await createTestPlan(db().pool, { perMinute: 25, perDay: 10_000, quota: 10_000 });
    const tenant = await createTenant(db().pool, { plan });
    const statuses = await Promise.all(
      Array.from({ length: 80 }, (_, n) =>
        fetch(`${replica(n).url}/api/v1/games/titles?limit=1`, { headers: bearer(tenant.key) }).then(
          (r) => r.status,
        ),
      ),
    );
    expect(
      statuses.filter((s) => s === 200),
      JSON.stringify(statuses),
    ).toHaveLength(25);
    expect(statuses.filter((s) => s === 429)).toHaveLength(55);
  });

  it("charged from leases (a busy organization): never past the limit, and all of it once both refuse", async () => {
    await startWithinOneMinute(20_000);
    const plan = await createTestPlan(db().pool, { perMinute: 600, perDay: 100_000, quota: null });
    const tenant = await createTenant(db().pool, { plan });
    const ask = (n: number) =>
      fetch(`${replica(n).url}/api/v1/games/titles?limit=1`, { headers: bearer(tenant.key) }).then(
        (r) => r.status,
      );
    const served = async (count: number) =>
      (await Promise.all(Array.from({ length: count }, (_, n) => ask(n)))).filter((s) => s === 200).length;
    const redis = new Redis(redisServer.url);
    try {
      const minuteCount = async () => {
        const [key] = await redis.keys(`gmi:rl:${tenant.organizationId}:m:*`);
        return Number((key && (await redis.get(key))) ?? 0);
      };
      // A busy interval on both replicas (USAGE_FLUSH_MS, 1 s), so the next requests lease units.
      let admitted = await served(60);
      await new Promise((r) => setTimeout(r, 1_500));
      admitted += await served(60);
      // Reserved ahead: the shared count is above what was served.
      expect(await minuteCount()).toBeGreaterThan(admitted);
      for (let wave = 0; wave < 10; wave++) {
        admitted += await served(60);
        expect(await minuteCount()).toBeLessThanOrEqual(600);
      }
      expect(admitted).toBeLessThanOrEqual(600);
      // A replica refuses only once its own lease is spent: then every unit was served.
      for (const n of [0, 1]) while ((await ask(n)) === 200) admitted += 1;
      expect(admitted).toBe(600);
    } finally {
      redis.disconnect();
    }
  });

  it("a keyed batch sent to both at once is processed once", async () => {
    const tenant = await createTenant(db().pool, { plan: "starter" });
    const key = `both-${Date.now()}`;
    const answers = await Promise.all([0, 1, 0, 1].map((n) => postBatch(n, tenant.key, key)));
    const processed = answers.filter(
      (r) => r.status === 200 && r.headers.get("idempotency-replayed") === null,
    );
    expect(processed).toHaveLength(1);
    for (const r of answers.filter((a) => a !== processed[0])) {
      expect(r.status === 409 || r.headers.get("idempotency-replayed") === "true").toBe(true);
    }
    expect(await usedOf(tenant.organizationId)).toBe(3);
  });

  it("a replica killed with SIGKILL mid-batch, on Pro and on Starter: the other serves the keys after the lease, each batch metered once", async () => {
    // Its own replica, whose usage buffer is written once a minute: Pro's units could only reach
    // PostgreSQL with the paid mark (issue 26 item 6), never by a flush before the kill.
    const victim = await startReplica(redisServer.url, { USAGE_FLUSH_MS: "60000" });
    doomed.push(victim);
    const batches = await Promise.all(
      (["pro", "starter"] as const).map(async (plan) => {
        const tenant = await createTenant(db().pool, { plan });
        const items = plan === "pro" ? 100 : 50;
        const body = JSON.stringify({
          requests: Array.from({ length: items }, (_, i) => ({ game_id: 101 + (i % 5) })),
        });
        return { plan, tenant, items, body, key: `killed-${plan}-${Date.now()}` };
      }),
    );
    // The batches' profile read waits on this lock: each request is held mid-batch, paid and claimed.
    const holder = await db().pool.connect();
    try {
      await holder.query("BEGIN");
      await holder.query("LOCK TABLE liquidity_snapshot_rows IN ACCESS EXCLUSIVE MODE");
      const inFlight = batches.map((b) =>
        post(victim.url, b.tenant.key, b.key, b.body).catch((error: unknown) => error),
      );
      await waitFor(async () => {
        const { rows } = await db().pool.query(
          "SELECT count(*)::int AS paid FROM idempotency_records WHERE key = ANY($1) AND paid_fingerprint IS NOT NULL",
          [batches.map((b) => b.key)],
        );
        return rows[0]?.paid === batches.length;
      });
      victim.child.kill("SIGKILL");
      for (const answer of await Promise.all(inFlight)) expect(answer).toBeInstanceOf(Error);
    } finally {
      await holder.query("ROLLBACK");
      holder.release();
    }
    const survivor = replica(1).url;
    for (const b of batches) expect((await post(survivor, b.tenant.key, b.key, b.body)).status).toBe(409);
    // The lease (30 s) lapses without the dead holder's heartbeat; then the other replica serves them.
    for (const b of batches) {
      let recovered: Response | undefined;
      await waitFor(
        async () => {
          recovered = await post(survivor, b.tenant.key, b.key, b.body);
          return recovered.status !== 409;
        },
        45_000,
        1_000,
      );
      expect(recovered?.status, b.plan).toBe(200);
      expect(recovered?.headers.get("idempotency-replayed")).toBeNull();
      const replayed = await post(survivor, b.tenant.key, b.key, b.body);
      expect(replayed.headers.get("idempotency-replayed")).toBe("true");
    }
    // Paid once, by the request that died: the retry was prepaid, and the units were durable.
    for (const b of batches) expect(await usedOf(b.tenant.organizationId), b.plan).toBe(b.items);
  }, 120_000);
});
