import { randomUUID } from "node:crypto";
import { AccountRecordSchema, ErrorEnvelopeSchema } from "@gmi/contract";
import { Redis } from "ioredis";
import pino from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { manualClock } from "../src/clock.js";
import { extraWithin } from "../src/domain/limits/lease.js";
import { billingMonth } from "../src/domain/limits/windows.js";
import { redisBackedLimiter } from "../src/metering/failover-windows.js";
import { leasedLimiterStore } from "../src/metering/leased-windows.js";
import { redisLimiterStore } from "../src/metering/redis-windows.js";
import type { TestApp } from "./helpers/app.js";
import { bearer, startTestApp } from "./helpers/app.js";
import { startWithinOneMinute } from "./helpers/minute.js";
import { testRedisUrl, useTestDatabase } from "./helpers/setup.js";
import { createTenant, createTestPlan } from "./helpers/tenant.js";

const db = useTestDatabase();
// 10:00:30 UTC on a mid-month day: away from every window boundary.
const clock = manualClock(Date.UTC(2026, 5, 15, 10, 0, 30));
let t: TestApp;
beforeAll(async () => {
  t = await startTestApp(db().pool, { clock });
});
afterAll(() => t?.close());

const titles = (key: string, url = "/api/v1/games/titles") => t.app.inject({ url, headers: bearer(key) });

const errorOf = (response: { json(): unknown }) => ErrorEnvelopeSchema.parse(response.json()).error;

/** Whole seconds from the clock to the end of its minute, as X-RateLimit-Reset says them. */
const untilMinuteEnds = () => Math.ceil((60_000 - (clock.now() % 60_000)) / 1000);

describe("rate windows", () => {
  it("429 on the minute window with Retry-After; headers count down; the next minute admits again", async () => {
    const plan = await createTestPlan(db().pool, { perMinute: 3, perDay: 100, quota: null });
    const { key } = await createTenant(db().pool, { plan });
    const remaining: string[] = [];
    for (let i = 0; i < 3; i++) {
      const response = await titles(key);
      expect(response.statusCode).toBe(200);
      expect(response.headers["x-ratelimit-limit"]).toBe("3");
      expect(response.headers["x-ratelimit-reset"]).toBe("30");
      remaining.push(String(response.headers["x-ratelimit-remaining"]));
    }
    expect(remaining).toEqual(["2", "1", "0"]);
    const refused = await titles(key);
    expect(refused.statusCode).toBe(429);
    expect(refused.headers["retry-after"]).toBe("30");
    expect(refused.headers["x-ratelimit-remaining"]).toBe("0");
    expect(errorOf(refused)).toMatchObject({
      code: "rate_limit_exceeded",
      details: { window: "minute", limit: 3 },
    });
    clock.advance(60_000);
    expect((await titles(key)).statusCode).toBe(200);
  });

  it("429 on the day window, Retry-After until the end of the UTC day", async () => {
    const plan = await createTestPlan(db().pool, { perMinute: 100, perDay: 2, quota: null });
    const { key } = await createTenant(db().pool, { plan });
    expect((await titles(key)).statusCode).toBe(200);
    expect((await titles(key)).statusCode).toBe(200);
    const refused = await titles(key);
    expect(refused.statusCode).toBe(429);
    expect(errorOf(refused)).toMatchObject({ details: { window: "day", limit: 2 } });
    const untilMidnight = (Date.UTC(2026, 5, 16) - clock.now()) / 1000;
    expect(Number(refused.headers["retry-after"])).toBe(Math.ceil(untilMidnight));
  });

  it("validation failures are metered like any served request", async () => {
    const plan = await createTestPlan(db().pool, { perMinute: 2, perDay: 100, quota: null });
    const { key } = await createTenant(db().pool, { plan });
    expect((await titles(key, "/api/v1/games/titles?limit=0")).statusCode).toBe(422);
    expect((await titles(key, "/api/v1/games/titles?limit=0")).statusCode).toBe(422);
    expect((await titles(key)).statusCode).toBe(429);
  });
});

describe("monthly quota", () => {
  it("402 quota_exceeded with Retry-After until the month resets; refused requests cost nothing", async () => {
    const plan = await createTestPlan(db().pool, { perMinute: 100, perDay: 100, quota: 2 });
    const { key } = await createTenant(db().pool, { plan });
    expect((await titles(key)).statusCode).toBe(200);
    expect((await titles(key)).statusCode).toBe(200);
    const refused = await titles(key);
    expect(refused.statusCode).toBe(402);
    const resetsIn = Math.ceil((Date.UTC(2026, 6, 1) - clock.now()) / 1000);
    expect(errorOf(refused)).toEqual({
      code: "quota_exceeded",
      message: expect.any(String),
      details: { quota: 2, used: 2, resets_in: resetsIn },
    });
    expect(refused.headers["retry-after"]).toBe(String(resetsIn));
    // The rate windows were refunded: 2 admitted requests so far.
    expect(refused.headers["x-ratelimit-remaining"]).toBe("98");
  });

  it("a batch larger than what is left of the quota says what it costs and what is left; the rest still serves", async () => {
    const plan = await createTestPlan(db().pool, { perMinute: 100, perDay: 100, quota: 5 });
    const { key } = await createTenant(db().pool, { plan });
    const batch = (n: number) =>
      t.app.inject({
        method: "POST",
        url: "/api/v1/intelligence/batch",
        headers: { ...bearer(key), "content-type": "application/json" },
        payload: JSON.stringify({ requests: Array.from({ length: n }, (_, i) => ({ game_id: i + 1 })) }),
      });
    expect((await titles(key)).statusCode).toBe(200);
    const refused = await batch(6);
    expect(refused.statusCode).toBe(402);
    expect(errorOf(refused)).toMatchObject({
      message:
        "Monthly quota of 5 requests: this request costs 6 units and 4 are left; it resets at the start of the next UTC month",
      details: { quota: 5, used: 1 },
    });
    // The refused batch cost nothing: the four units left still serve.
    for (let i = 0; i < 4; i++) expect((await titles(key)).statusCode).toBe(200);
    expect(errorOf(await titles(key)).message).toBe(
      "Monthly quota of 5 requests used up; it resets at the start of the next UTC month",
    );
  });

  it("a plan with overage (Pro) is served past its quota", async () => {
    const plan = await createTestPlan(db().pool, { perMinute: 100, perDay: 100, quota: 1, overage: true });
    const { key } = await createTenant(db().pool, { plan });
    for (let i = 0; i < 3; i++) expect((await titles(key)).statusCode).toBe(200);
  });

  it("/me shows live usage and costs nothing itself; Enterprise is unmetered (quota null)", async () => {
    const starter = await createTenant(db().pool, { plan: "starter" });
    await titles(starter.key);
    await titles(starter.key, "/api/v1/me");
    const me = AccountRecordSchema.parse((await titles(starter.key, "/api/v1/me")).json().data);
    expect(me.usage.month).toEqual({
      used: 1,
      quota: 250_000,
      resets_in: Math.ceil((Date.UTC(2026, 6, 1) - clock.now()) / 1000),
    });
    expect(me.usage.day).toEqual({
      used: 1,
      limit: 20_000,
      resets_in: Math.ceil((Date.UTC(2026, 5, 16) - clock.now()) / 1000),
    });
    const enterprise = await createTenant(db().pool, { plan: "enterprise" });
    const meE = AccountRecordSchema.parse((await titles(enterprise.key, "/api/v1/me")).json().data);
    expect(meE.usage.month).toMatchObject({ used: 0, quota: null });
    expect(meE.plan.monthly_quota).toBeNull();
  });

  it("usage survives a restart (a new app on the same database)", async () => {
    const tenant = await createTenant(db().pool, { plan: "enterprise" });
    const first = await startTestApp(db().pool, { clock });
    for (let i = 0; i < 4; i++)
      await first.app.inject({ url: "/api/v1/games/titles", headers: bearer(tenant.key) });
    await first.close();
    const stored = await db().pool.query(
      "SELECT used FROM usage_months WHERE organization_id = $1 AND month = $2",
      [tenant.organizationId, billingMonth(clock.now())],
    );
    expect(Number(stored.rows[0]?.used)).toBe(4);
    const second = await startTestApp(db().pool, { clock });
    try {
      const me = (await second.app.inject({ url: "/api/v1/me", headers: bearer(tenant.key) })).json();
      expect(me.data.usage.month.used).toBe(4);
    } finally {
      await second.close();
    }
  });
});

describe("rate-limit headers and /me (issue 21 item 4)", () => {
  it("/me costs no unit and answers past the minute window and past the quota, with the headers", async () => {
    const plan = await createTestPlan(db().pool, { perMinute: 2, perDay: 100, quota: 3 });
    const { key } = await createTenant(db().pool, { plan });
    expect((await titles(key)).statusCode).toBe(200);
    expect((await titles(key)).statusCode).toBe(200);
    expect((await titles(key)).statusCode).toBe(429);
    const limited = await titles(key, "/api/v1/me");
    expect(limited.statusCode).toBe(200);
    expect(limited.headers["x-ratelimit-limit"]).toBe("2");
    expect(limited.headers["x-ratelimit-remaining"]).toBe("0");
    expect(limited.headers["x-ratelimit-reset"]).toBe("30");
    clock.advance(60_000);
    expect((await titles(key)).statusCode).toBe(200);
    expect((await titles(key)).statusCode).toBe(402);
    const blocked = await titles(key, "/api/v1/me");
    expect(blocked.statusCode).toBe(200);
    expect(blocked.json().data.usage.month).toMatchObject({ used: 3, quota: 3 });
    expect(blocked.headers["x-ratelimit-remaining"]).toBe("1");
    clock.advance(60_000);
  });

  it("a 403 of a valid key carries its organization's headers; a 401 carries none", async () => {
    const plan = await createTestPlan(db().pool, { perMinute: 10, perDay: 100, quota: null });
    const { key } = await createTenant(db().pool, { plan, scopes: ["games.read"] });
    expect((await titles(key)).statusCode).toBe(200);
    const forbidden = await titles(key, "/api/v1/intelligence?period=7d");
    expect(forbidden.statusCode).toBe(403);
    expect(errorOf(forbidden).code).toBe("insufficient_scope");
    expect(forbidden.headers["x-ratelimit-limit"]).toBe("10");
    // Refused by auth: charged nothing.
    expect(forbidden.headers["x-ratelimit-remaining"]).toBe("9");
    expect(Number(forbidden.headers["x-ratelimit-reset"])).toBeGreaterThan(0);
    const unknown = await titles("gmi_live_not-a-real-key");
    expect(unknown.statusCode).toBe(401);
    expect(unknown.headers["x-ratelimit-limit"]).toBeUndefined();
  });

  it("a batch refused by the minute window says what it costs and what is left, as the headers do", async () => {
    const plan = await createTestPlan(db().pool, { perMinute: 8, perDay: 100, quota: null });
    const { key } = await createTenant(db().pool, { plan });
    const refused = await t.app.inject({
      method: "POST",
      url: "/api/v1/intelligence/batch",
      headers: { ...bearer(key), "content-type": "application/json" },
      payload: JSON.stringify({ requests: Array.from({ length: 9 }, (_, i) => ({ game_id: i + 1 })) }),
    });
    expect(refused.statusCode).toBe(429);
    expect(refused.headers["x-ratelimit-remaining"]).toBe("8");
    expect(errorOf(refused).message).toBe(
      "Rate limit of 8 requests per minute: this request costs 9 units and 8 are left",
    );
  });
});

describe.skipIf(!testRedisUrl())(
  "Limits rule 2 on refusals, on Redis and PostgreSQL (issue 26 item 2)",
  () => {
    const prefix = `gmi:test:${randomUUID()}:`;
    let redis: Redis;
    let limiter: ReturnType<typeof leasedLimiterStore>;
    let served: TestApp;
    beforeAll(async () => {
      // The production stack: leases over Redis with its failover, usage in PostgreSQL.
      redis = new Redis(testRedisUrl() ?? "");
      const shared = redisBackedLimiter(redis, pino({ level: "silent" }), prefix);
      limiter = leasedLimiterStore(shared, { flushMs: 3_600_000, now: () => clock.now() });
      served = await startTestApp(db().pool, { clock, limiter });
    });
    afterAll(async () => {
      await served?.close();
      await limiter?.close();
      const keys = await redis.keys(`${prefix}*`);
      if (keys.length) await redis.del(...keys);
      redis.disconnect();
    });
    const ask = (key: string) => served.app.inject({ url: "/api/v1/games/titles", headers: bearer(key) });
    const minuteHeaders = (response: { headers: Record<string, unknown> }) => ({
      limit: response.headers["x-ratelimit-limit"],
      remaining: response.headers["x-ratelimit-remaining"],
      reset: response.headers["x-ratelimit-reset"],
    });

    it("a 429 of the day window: X-RateLimit-* of the minute window, the day in details and Retry-After", async () => {
      const plan = await createTestPlan(db().pool, { perMinute: 100, perDay: 2, quota: null });
      const { key } = await createTenant(db().pool, { plan });
      expect((await ask(key)).statusCode).toBe(200);
      expect((await ask(key)).statusCode).toBe(200);
      const refused = await ask(key);
      expect(refused.statusCode).toBe(429);
      expect(errorOf(refused)).toMatchObject({ details: { window: "day", limit: 2 } });
      expect(errorOf(refused).message).toBe("Rate limit of 2 requests per day exceeded");
      expect(minuteHeaders(refused)).toEqual({
        limit: "100",
        remaining: "98",
        reset: String(untilMinuteEnds()),
      });
      const untilMidnight = Math.ceil((Date.UTC(2026, 5, 16) - clock.now()) / 1000);
      expect(refused.headers["retry-after"]).toBe(String(untilMidnight));
    });

    it("/me's usage.day is the day window a 429 is decided on, and reading it charges nothing", async () => {
      const plan = await createTestPlan(db().pool, { perMinute: 100, perDay: 3, quota: null });
      const { key } = await createTenant(db().pool, { plan });
      const day = async () =>
        (await served.app.inject({ url: "/api/v1/me", headers: bearer(key) })).json().data.usage.day;
      expect(await day()).toMatchObject({ used: 0, limit: 3 });
      expect((await ask(key)).statusCode).toBe(200);
      expect((await ask(key)).statusCode).toBe(200);
      expect(await day()).toMatchObject({ used: 2 });
      expect(await day()).toMatchObject({ used: 2 });
      expect((await ask(key)).statusCode).toBe(200);
      expect(await day()).toMatchObject({ used: 3, limit: 3 });
      expect(errorOf(await ask(key))).toMatchObject({ details: { window: "day", limit: 3 } });
    });

    it("a 402: X-RateLimit-* of the minute window (the refused request refunded), Retry-After to the month's end", async () => {
      const plan = await createTestPlan(db().pool, { perMinute: 10, perDay: 100, quota: 2 });
      const { key } = await createTenant(db().pool, { plan });
      expect((await ask(key)).statusCode).toBe(200);
      expect((await ask(key)).statusCode).toBe(200);
      const refused = await ask(key);
      expect(refused.statusCode).toBe(402);
      expect(minuteHeaders(refused)).toEqual({
        limit: "10",
        remaining: "8",
        reset: String(untilMinuteEnds()),
      });
      const untilMonthEnds = Math.ceil((Date.UTC(2026, 6, 1) - clock.now()) / 1000);
      expect(refused.headers["retry-after"]).toBe(String(untilMonthEnds));
    });
  },
);

describe("batch metering", () => {
  it("a batch costs one unit per element, and a refused batch costs nothing", async () => {
    const plan = await createTestPlan(db().pool, { perMinute: 8, perDay: 100, quota: null });
    const { key } = await createTenant(db().pool, { plan });
    const send = (n: number) =>
      t.app.inject({
        method: "POST",
        url: "/api/v1/intelligence/batch",
        headers: { ...bearer(key), "content-type": "application/json" },
        payload: JSON.stringify({ requests: Array.from({ length: n }, (_, i) => ({ game_id: i + 1 })) }),
      });
    const five = await send(5);
    expect(five.headers["x-ratelimit-remaining"]).toBe("3");
    const refused = await send(4);
    expect(refused.statusCode).toBe(429);
    expect(refused.headers["x-ratelimit-remaining"]).toBe("3");
    const three = await send(3);
    expect(three.headers["x-ratelimit-remaining"]).toBe("0");
  });
});

describe.skipIf(!testRedisUrl())("shared Redis limiter", () => {
  it("two app instances never admit more than the limit under concurrent load", async () => {
    const prefix = `gmi:test:${randomUUID()}:`;
    const redisA = new Redis(testRedisUrl() ?? "", { enableAutoPipelining: true });
    const redisB = new Redis(testRedisUrl() ?? "");
    const a = await startTestApp(db().pool, { limiter: redisLimiterStore(redisA, prefix) });
    const b = await startTestApp(db().pool, { limiter: redisLimiterStore(redisB, prefix) });
    try {
      const { key } = await createTenant(db().pool, { plan: "free" });
      const fire = (app: TestApp) =>
        Array.from({ length: 40 }, () =>
          app.app.inject({ url: "/api/v1/games/titles", headers: bearer(key) }),
        );
      const responses = await Promise.all([...fire(a), ...fire(b)]);
      const statuses = responses.map((r) => r.statusCode);
      expect(statuses.filter((s) => s === 200)).toHaveLength(30);
      expect(statuses.filter((s) => s === 429)).toHaveLength(50);
    } finally {
      await a.close();
      await b.close();
      const keys = await redisA.keys(`${prefix}*`);
      if (keys.length) await redisA.del(...keys);
      redisA.disconnect();
      redisB.disconnect();
    }
  });

  it("the reservation grants ahead by the lease rule, on the tightest window, in the same atomic step", async () => {
    const prefix = `gmi:test:${randomUUID()}:`;
    const redis = new Redis(testRedisUrl() ?? "");
    const store = redisLimiterStore(redis, prefix);
    const now = Date.now();
    const windows = [
      { key: "m", limit: 3_200, resetsAt: now + 60_000 },
      { key: "d", limit: 640, resetsAt: now + 60_000 },
    ];
    try {
      expect(await store.consume(windows, 1, now, 1_000)).toEqual({
        admitted: true,
        counts: [20, 20],
        granted: extraWithin(1_000, 640, 0, 1),
      });
      expect(await store.consume(windows, 1, now, 5)).toEqual({
        admitted: true,
        counts: [26, 26],
        granted: 5,
      });
      expect(await store.consume(windows, 1, now)).toEqual({ admitted: true, counts: [27, 27], granted: 0 });
      expect(await store.consume(windows, 614, now, 1_000)).toEqual({
        admitted: false,
        counts: [27, 27],
        blocked: 1,
      });
    } finally {
      const keys = await redis.keys(`${prefix}*`);
      if (keys.length) await redis.del(...keys);
      redis.disconnect();
    }
  });

  it("two app instances charging from leases: never past the limit, and all of it once both are refused", async () => {
    await startWithinOneMinute(15_000);
    const prefix = `gmi:test:${randomUUID()}:`;
    const redis = new Redis(testRedisUrl() ?? "", { enableAutoPipelining: true });
    const limiters = [0, 1].map(() =>
      leasedLimiterStore(redisLimiterStore(redis, prefix), { flushMs: 3_600_000 }),
    );
    const apps = await Promise.all(limiters.map((limiter) => startTestApp(db().pool, { limiter })));
    try {
      const plan = await createTestPlan(db().pool, { perMinute: 1_000, perDay: 100_000, quota: null });
      const { key } = await createTenant(db().pool, { plan });
      const ask = (n: number) =>
        apps[n % 2]?.app.inject({ url: "/api/v1/games/titles?limit=1", headers: bearer(key) }) ??
        Promise.reject(new Error("no app"));
      const served = async (count: number) =>
        (await Promise.all(Array.from({ length: count }, (_, n) => ask(n)))).filter(
          (r) => r.statusCode === 200,
        ).length;
      // A busy interval on both, so that the next requests are charged from leases.
      let admitted = await served(100);
      await Promise.all(limiters.map((limiter) => limiter.flush()));
      const [minuteKey] = await redis.keys(`${prefix}*:m:*`);
      for (let wave = 0; wave < 12; wave++) {
        admitted += await served(100);
        expect(Number(await redis.get(minuteKey ?? ""))).toBeLessThanOrEqual(1_000);
      }
      expect(admitted).toBeLessThanOrEqual(1_000);
      // Each instance refuses only once its own lease is spent: then every unit was served.
      for (const n of [0, 1]) {
        while ((await ask(n)).statusCode === 200) admitted += 1;
      }
      expect(admitted).toBe(1_000);
    } finally {
      await Promise.all(apps.map((app) => app.close()));
      await Promise.all(limiters.map((limiter) => limiter.close()));
      const keys = await redis.keys(`${prefix}*`);
      if (keys.length) await redis.del(...keys);
      redis.disconnect();
    }
  });
});
