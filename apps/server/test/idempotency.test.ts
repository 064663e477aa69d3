import type { ChildProcess } from "node:child_process";
import { spawn } from "node:child_process";
import { once } from "node:events";
import { fileURLToPath } from "node:url";
import { ErrorEnvelopeSchema } from "@gmi/contract";
import { Redis } from "ioredis";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { manualClock, systemClock } from "../src/clock.js";
import { LEASE_MS, RETENTION_MS } from "../src/domain/idempotency/policy.js";
import { IDLE_FLUSHES } from "../src/domain/limits/lease.js";
import { billingMonth } from "../src/domain/limits/windows.js";
import { redisLimiterStore } from "../src/metering/redis-windows.js";
import type { TestApp } from "./helpers/app.js";
import { bearer, startTestApp } from "./helpers/app.js";
import { ignoreTerminationOnDrop, json, seedAnalytics, spySql } from "./helpers/batch.js";
import { testRedisUrl, useTestDatabase } from "./helpers/setup.js";
import { createTenant, createTestPlan } from "./helpers/tenant.js";

const db = useTestDatabase();
const clock = manualClock(Date.now());
let spy: ReturnType<typeof spySql>;
let t: TestApp;
beforeAll(async () => {
  ignoreTerminationOnDrop(db().pool);
  await seedAnalytics(db());
  spy = spySql(db().pool);
  // Answer caches off: every processed batch reads its profiles, which is what the spy counts.
  t = await startTestApp(spy.sql, { clock, env: { RESPONSE_CACHE_TTL_MS: "0" } });
});
afterAll(() => t?.close());

const URL_ = "/api/v1/intelligence/batch";
const BODY = { requests: [{ game_id: 101 }, { id: 103 }, { game_id: 999_999 }] };

let keys = 0;
const newKey = () => `key-${process.pid}-${++keys}-${Math.random().toString(36).slice(2)}`;

const post = (
  apiKey: string,
  idempotencyKey: string | undefined,
  payload: string = JSON.stringify(BODY),
  url = URL_,
  app = t.app,
) =>
  app.inject({
    method: "POST",
    url,
    headers: {
      ...bearer(apiKey),
      ...json,
      ...(idempotencyKey === undefined ? {} : { "idempotency-key": idempotencyKey }),
    },
    payload,
  });

const usedOf = async (organizationId: number) => {
  // Leases of hard-capped plans count as used until given back: one busy flush, then IDLE_FLUSHES idle ones.
  for (let i = 0; i <= IDLE_FLUSHES; i++) await t.usage.flush();
  const { rows } = await db().pool.query<{ used: number }>(
    "SELECT used FROM usage_months WHERE organization_id = $1 AND month = $2",
    [organizationId, billingMonth(clock.now())],
  );
  return Number(rows[0]?.used ?? 0);
};

const errorOf = (response: { json(): unknown }) => ErrorEnvelopeSchema.parse(response.json()).error;

const recordState = async (organizationId: number, key: string) => {
  const { rows } = await db().pool.query<{ state: string }>(
    "SELECT state FROM idempotency_records WHERE organization_id = $1 AND key = $2",
    [organizationId, key],
  );
  return rows[0]?.state ?? null;
};

const waitFor = async (check: () => Promise<boolean>, timeoutMs = 20_000) => {
  const until = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > until) throw new Error("timed out");
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
};

describe("replay", () => {
  it("same key, same payload: the stored response byte for byte, no new work, no new quota", async () => {
    const tenant = await createTenant(db().pool, { plan: "starter" });
    const key = newKey();
    const first = await post(tenant.key, key);
    expect(first.statusCode).toBe(200);
    expect(first.headers["idempotency-replayed"]).toBeUndefined();
    const reads = spy.profileReads();

    // Same payload written differently: other key order and whitespace.
    const again = await post(
      tenant.key,
      key,
      ' { "requests" : [ {"game_id":101}, {"id":103}, {"game_id":999999} ] } ',
    );
    expect(again.statusCode).toBe(first.statusCode);
    expect(Buffer.compare(again.rawPayload, first.rawPayload)).toBe(0);
    expect(again.headers["content-type"]).toBe(first.headers["content-type"]);
    expect(again.headers["idempotency-replayed"]).toBe("true");
    expect(again.headers["x-request-id"]).not.toBe(first.headers["x-request-id"]);
    expect(spy.profileReads()).toBe(reads);
    // 3 units for the batch; the replay costs one unit of the minute window and no quota.
    expect(await usedOf(tenant.organizationId)).toBe(3);
    expect(
      Number(first.headers["x-ratelimit-remaining"]) - Number(again.headers["x-ratelimit-remaining"]),
    ).toBe(1);
  });

  it("a 207 is replayed with its status", async () => {
    const tenant = await createTenant(db().pool);
    const key = newKey();
    const payload = JSON.stringify({ requests: [{ id: 101 }, { id: "x" }] });
    const first = await post(tenant.key, key, payload);
    expect(first.statusCode).toBe(207);
    const again = await post(tenant.key, key, payload);
    expect(again.statusCode).toBe(207);
    expect(Buffer.compare(again.rawPayload, first.rawPayload)).toBe(0);
  });

  it("a replay needs no monthly quota: it is answered even when the quota is used up", async () => {
    const plan = await createTestPlan(db().pool, { perMinute: 100, perDay: 100, quota: 3 });
    const tenant = await createTenant(db().pool, { plan });
    const key = newKey();
    expect((await post(tenant.key, key)).statusCode).toBe(200);
    expect((await post(tenant.key, newKey())).statusCode).toBe(402);
    const replay = await post(tenant.key, key);
    expect(replay.statusCode).toBe(200);
    expect(replay.headers["idempotency-replayed"]).toBe("true");
    expect(await usedOf(tenant.organizationId)).toBe(3);
  });

  it("a whole-batch refusal that was metered (422 batch_too_large) is stored and replayed too", async () => {
    const tenant = await createTenant(db().pool, { plan: "free" });
    const key = newKey();
    const payload = JSON.stringify({ requests: Array.from({ length: 11 }, () => ({ id: 101 })) });
    const first = await post(tenant.key, key, payload);
    expect(first.statusCode).toBe(422);
    const again = await post(tenant.key, key, payload);
    expect(again.statusCode).toBe(422);
    expect(again.headers["idempotency-replayed"]).toBe("true");
    expect(Buffer.compare(again.rawPayload, first.rawPayload)).toBe(0);
  });

  it("without a key, every request is processed and charged", async () => {
    const tenant = await createTenant(db().pool, { plan: "starter" });
    const reads = spy.profileReads();
    await post(tenant.key, undefined);
    await post(tenant.key, undefined);
    expect(spy.profileReads()).toBe(reads + 2);
    expect(await usedOf(tenant.organizationId)).toBe(6);
  });
});

describe("reuse and key format", () => {
  it("422 idempotency_key_reuse for a different body, query or endpoint under the same key", async () => {
    const tenant = await createTenant(db().pool);
    const key = newKey();
    expect((await post(tenant.key, key)).statusCode).toBe(200);
    const other = [
      post(tenant.key, key, JSON.stringify({ requests: [{ game_id: 101 }] })),
      post(tenant.key, key, JSON.stringify(BODY), `${URL_}?period=30d`),
      post(tenant.key, key, JSON.stringify({ requests: [{ id: 101 }] }), "/api/v1/signals/batch"),
    ];
    for (const response of await Promise.all(other)) {
      expect(response.statusCode).toBe(422);
      expect(errorOf(response)).toEqual({
        code: "idempotency_key_reuse",
        message: expect.any(String),
        details: { idempotency_key: key },
      });
    }
  });

  it("keys are per organization: another tenant's same key is a new key", async () => {
    const a = await createTenant(db().pool);
    const b = await createTenant(db().pool);
    const key = newKey();
    await post(a.key, key);
    const response = await post(b.key, key, JSON.stringify({ requests: [{ id: 103 }] }));
    expect(response.statusCode).toBe(200);
    expect(response.headers["idempotency-replayed"]).toBeUndefined();
  });

  it("422 validation_failed naming header idempotency-key for an unusable key", async () => {
    const tenant = await createTenant(db().pool);
    for (const bad of ["", "a".repeat(256), "has space", "naïve"]) {
      const response = await post(tenant.key, bad);
      expect(response.statusCode).toBe(422);
      const error = errorOf(response);
      expect(error.code).toBe("validation_failed");
      expect(error.details).toMatchObject({ issues: [{ location: "header", field: "idempotency-key" }] });
    }
    expect((await post(tenant.key, "a".repeat(255))).statusCode).toBe(200);
  });
});

describe("in flight", () => {
  it("409 idempotency_conflict while the original is held open; then the original's answer is replayed", async () => {
    const tenant = await createTenant(db().pool, { plan: "starter" });
    const key = newKey();
    const release = spy.hold();
    const original = post(tenant.key, key);
    try {
      await waitFor(async () => (await recordState(tenant.organizationId, key)) === "in_flight");
      const conflict = await post(tenant.key, key);
      expect(conflict.statusCode).toBe(409);
      expect(errorOf(conflict)).toEqual({
        code: "idempotency_conflict",
        message: expect.any(String),
        details: { idempotency_key: key, retry_after: 2 },
      });
      expect(conflict.headers["retry-after"]).toBe("2");
      expect(conflict.headers["x-ratelimit-limit"]).toBe("120");
    } finally {
      release();
    }
    const answered = await original;
    expect(answered.statusCode).toBe(200);
    const replay = await post(tenant.key, key);
    expect(replay.headers["idempotency-replayed"]).toBe("true");
    expect(Buffer.compare(replay.rawPayload, answered.rawPayload)).toBe(0);
    expect(await usedOf(tenant.organizationId)).toBe(3);
  });

  it("a request refused by the limits releases its key: the same request is processed later", async () => {
    const plan = await createTestPlan(db().pool, { perMinute: 2, perDay: 100, quota: 100 });
    const tenant = await createTenant(db().pool, { plan });
    const key = newKey();
    const refused = await post(tenant.key, key);
    expect(refused.statusCode).toBe(429);
    expect(await recordState(tenant.organizationId, key)).toBeNull();
    clock.advance(60_000);
    const small = JSON.stringify({ requests: [{ id: 101 }, { id: 103 }] });
    const accepted = await post(tenant.key, key, small);
    expect(accepted.statusCode).toBe(200);
    expect(accepted.headers["idempotency-replayed"]).toBeUndefined();
  });
});

describe("24 hours", () => {
  it("the stored answer replays for 24 h; after that the key is fresh (a new payload is processed)", async () => {
    const tenant = await createTenant(db().pool);
    const key = newKey();
    const start = clock.now();
    try {
      expect((await post(tenant.key, key)).statusCode).toBe(200);
      const other = JSON.stringify({ requests: [{ id: 103 }] });
      clock.advance(RETENTION_MS - 1_000);
      expect((await post(tenant.key, key)).headers["idempotency-replayed"]).toBe("true");
      expect((await post(tenant.key, key, other)).statusCode).toBe(422);
      clock.advance(1_000);
      const fresh = await post(tenant.key, key, other);
      expect(fresh.statusCode).toBe(200);
      expect(fresh.headers["idempotency-replayed"]).toBeUndefined();
      expect(fresh.json().data).toHaveLength(1);
    } finally {
      clock.set(start);
    }
  });
});

describe.skipIf(!testRedisUrl())("two server instances on one database", () => {
  const instances: Array<{
    app: TestApp;
    pool: pg.Pool;
    spy: ReturnType<typeof spySql>;
    redis: Redis;
    url: string;
  }> = [];
  beforeAll(async () => {
    for (let i = 0; i < 2; i++) {
      const pool = new pg.Pool({ connectionString: db().url, max: 8 });
      ignoreTerminationOnDrop(pool);
      const instanceSpy = spySql(pool);
      const redis = new Redis(testRedisUrl() as string);
      const app = await startTestApp(instanceSpy.sql, {
        clock: systemClock,
        limiter: redisLimiterStore(redis, `gmi:test:${process.pid}:${Date.now()}:`),
      });
      const url = await app.app.listen({ port: 0, host: "127.0.0.1" });
      instances.push({ app, pool, spy: instanceSpy, redis, url });
    }
  });
  afterAll(async () => {
    for (const i of instances) {
      await i.app.close();
      await i.pool.end();
      i.redis.disconnect();
    }
  });

  it("50 simultaneous requests with one key: one processing, one metering; the rest 409 or the replay", async () => {
    const tenant = await createTenant(db().pool, { plan: "starter" });
    const key = newKey();
    const responses = await Promise.all(
      Array.from({ length: 50 }, async (_, n) => {
        const instance = instances[n % 2];
        if (!instance) throw new Error("no instance");
        const response = await fetch(`${instance.url}${URL_}`, {
          method: "POST",
          headers: { ...bearer(tenant.key), ...json, "idempotency-key": key },
          body: JSON.stringify(BODY),
        });
        return {
          status: response.status,
          replayed: response.headers.get("idempotency-replayed") === "true",
          body: Buffer.from(await response.arrayBuffer()),
        };
      }),
    );
    const processed = responses.filter((r) => r.status === 200 && !r.replayed);
    expect(processed).toHaveLength(1);
    const rest = responses.filter((r) => r !== processed[0]);
    for (const r of rest) expect(r.status === 409 || (r.status === 200 && r.replayed)).toBe(true);
    for (const r of rest.filter((x) => x.replayed))
      expect(Buffer.compare(r.body, processed[0]?.body ?? Buffer.alloc(0))).toBe(0);
    expect(instances.reduce((n, i) => n + i.spy.profileReads(), 0)).toBe(1);
    expect(await usedOf(tenant.organizationId)).toBe(BODY.requests.length);
  });
});

describe("a request killed in flight", () => {
  let child: ChildProcess | undefined;
  afterAll(() => {
    if (child && child.exitCode === null) child.kill("SIGKILL");
  });

  it("leaves its key in flight (409) only until the lease lapses; then the key is processed again, unpaid", async () => {
    // Starter: its quota is counted per request in PostgreSQL, so what the killed process paid shows.
    const tenant = await createTenant(db().pool, { plan: "starter" });
    const key = newKey();
    const serverDir = fileURLToPath(new URL("..", import.meta.url));
    child = spawn(process.execPath, ["--import", "tsx", "test/fixtures/hanging-server.ts"], {
      cwd: serverDir,
      env: { ...process.env, HANGING_SERVER_DATABASE_URL: db().url },
      stdio: ["ignore", "pipe", "inherit"],
    });
    const [line] = (await once(child.stdout as NodeJS.ReadableStream, "data")) as [Buffer];
    const { port } = JSON.parse(line.toString()) as { port: number };
    const doomed = fetch(`http://127.0.0.1:${port}${URL_}`, {
      method: "POST",
      headers: { ...bearer(tenant.key), ...json, "idempotency-key": key },
      body: JSON.stringify(BODY),
    }).catch((error: unknown) => error);
    // Killed once its units are charged and recorded as paid, in the middle of reading the profiles.
    await waitFor(async () => {
      const { rows } = await db().pool.query(
        "SELECT paid_fingerprint FROM idempotency_records WHERE organization_id = $1 AND key = $2",
        [tenant.organizationId, key],
      );
      return Boolean(rows[0]?.paid_fingerprint);
    });
    child.kill("SIGKILL");
    await once(child, "exit");
    expect(await doomed).toBeInstanceOf(Error);

    // The dead holder's lease was taken at the real time; this app's clock decides when it lapses.
    const start = clock.now();
    try {
      clock.set(Date.now());
      expect((await post(tenant.key, key)).statusCode).toBe(409);
      clock.advance(LEASE_MS + 1_000);
      const recovered = await post(tenant.key, key);
      expect(recovered.statusCode).toBe(200);
      expect(recovered.headers["idempotency-replayed"]).toBeUndefined();
      expect((await post(tenant.key, key)).headers["idempotency-replayed"]).toBe("true");
      // Paid once, by the request that died: the retry that answered was not charged again.
      expect(await usedOf(tenant.organizationId)).toBe(BODY.requests.length);
    } finally {
      clock.set(start);
    }
  }, 60_000);
});
