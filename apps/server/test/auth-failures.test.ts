import type { FastifyInstance } from "fastify";
import { Redis } from "ioredis";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { createLogger } from "../src/app.js";
import { manualClock } from "../src/clock.js";
import { generateApiKey } from "../src/domain/auth/api-key.js";
import { redisBackedLimiter } from "../src/metering/failover-windows.js";
import type { LimiterStore } from "../src/metering/window-store.js";
import { freePort } from "./faults/processes.js";
import type { TestApp } from "./helpers/app.js";
import { bearer, startTestApp, testConfig } from "./helpers/app.js";
import { countingKeyLookups } from "./helpers/key-lookups.js";
import { testRedisUrl, useTestDatabase } from "./helpers/setup.js";
import { createTenant } from "./helpers/tenant.js";

/**
 * The failed-authentication limit per client (metering/auth-failures.ts): past LIMIT 401s in a
 * minute a client's answers are 429s, decided before any key lookup; the client is the socket's
 * peer unless a trusted proxy names it; counts are shared by replicas through Redis and kept per
 * replica while Redis is down; a customer whose key the replica knows is served though its
 * address is blocked.
 */
const LIMIT = 5;
const METRICS_TOKEN = "metrics-token-0123456789";
const db = useTestDatabase();
/** Every test on the same minute: the clock sits 10 s into one. */
const minuteStart = Math.floor(Date.now() / 60_000) * 60_000;
const started: Array<{ close(): Promise<void> }> = [];
afterEach(async () => {
  for (const app of started.splice(0)) await app.close();
});
const redisClients: Redis[] = [];
afterAll(() => {
  for (const redis of redisClients) redis.disconnect();
});

type Replica = TestApp & { lookups(): number };
const replica = async (
  options: {
    env?: Record<string, string>;
    limiter?: LimiterStore;
    clock?: ReturnType<typeof manualClock>;
  } = {},
): Promise<Replica> => {
  const counted = countingKeyLookups(db().pool);
  const app = await startTestApp(counted.sql, {
    clock: options.clock ?? manualClock(minuteStart + 10_000),
    env: { AUTH_FAILURES_PER_MINUTE: String(LIMIT), AUTH_CACHE_TTL_MS: "5000", ...options.env },
    ...(options.limiter ? { limiter: options.limiter } : {}),
  });
  started.push(app);
  return { ...app, lookups: counted.lookups };
};

/** Rate windows in the test Redis under a prefix of the test's own (several replicas share it). */
const sharedLimiter = (prefix: string, url = testRedisUrl() ?? "") => {
  const redis = new Redis(url, { maxRetriesPerRequest: 1, lazyConnect: true });
  redisClients.push(redis);
  return redisBackedLimiter(redis, createLogger(testConfig()), prefix);
};

const titles = "/api/v1/games/titles?limit=1";
const ask = (
  app: FastifyInstance,
  authorization: string | undefined,
  from: { remoteAddress?: string; forwardedFor?: string } = {},
) =>
  app.inject({
    url: titles,
    headers: {
      ...(authorization === undefined ? {} : { authorization }),
      ...(from.forwardedFor ? { "x-forwarded-for": from.forwardedFor } : {}),
    },
    ...(from.remoteAddress ? { remoteAddress: from.remoteAddress } : {}),
  });
const unknownKey = () => `Bearer ${generateApiKey().key}`;
const statuses = async (app: FastifyInstance, count: number, from?: Parameters<typeof ask>[2]) => {
  const seen: number[] = [];
  for (let n = 0; n < count; n++) seen.push((await ask(app, unknownKey(), from)).statusCode);
  return seen;
};

describe("failed authentications per client", () => {
  it("past the limit in a minute: 429 in the envelope with Retry-After, before any key lookup, until the minute ends", async () => {
    const clock = manualClock(minuteStart + 10_000);
    const r = await replica({ clock, env: { METRICS_TOKEN } });
    const failures = [
      await ask(r.app, undefined),
      await ask(r.app, "Bearer nope"),
      ...(await Promise.all([0, 1, 2].map(() => ask(r.app, unknownKey())))),
    ];
    expect(failures.map((f) => f.statusCode)).toEqual([401, 401, 401, 401, 401]);
    const lookupsBefore = r.lookups();
    const refused = await ask(r.app, unknownKey());
    expect(refused.statusCode).toBe(429);
    expect(refused.json()).toEqual({
      error: {
        code: "rate_limit_exceeded",
        message: `Too many failed authentications from this address (more than ${LIMIT} in a minute); check the API key`,
        details: { window: "minute", limit: LIMIT },
      },
    });
    expect(refused.headers["retry-after"]).toBe("50");
    expect(refused.headers["x-ratelimit-limit"]).toBeUndefined();
    // The failure past the limit was looked up (it had to fail first); none after it is.
    expect(r.lookups()).toBe(lookupsBefore + 1);
    expect(await statuses(r.app, 20)).toEqual(Array(20).fill(429));
    expect((await ask(r.app, undefined)).statusCode).toBe(429);
    expect(r.lookups()).toBe(lookupsBefore + 1);
    // Another address is not concerned.
    expect((await ask(r.app, undefined, { remoteAddress: "203.0.113.50" })).statusCode).toBe(401);

    clock.advance(50_000);
    expect(await statuses(r.app, LIMIT + 1)).toEqual([...Array(LIMIT).fill(401), 429]);
    // Once per client and minute: the log line and the counter.
    const scrape = await r.app.inject({ url: "/metrics", headers: bearer(METRICS_TOKEN) });
    expect(scrape.body).toMatch(/^gmi_auth_failure_blocks_total 2$/m);
  });

  it("serves a customer behind the same address (a NAT) whose key the replica knows; other keys meet the block", async () => {
    const clock = manualClock(minuteStart + 10_000);
    const r = await replica({ clock });
    const customer = await createTenant(db().pool);
    const known = await createTenant(db().pool, { scopes: ["intelligence.read"] });
    const unseen = await createTenant(db().pool);
    expect((await ask(r.app, bearer(customer.key).authorization)).statusCode).toBe(200);
    expect((await ask(r.app, bearer(known.key).authorization)).statusCode).toBe(403);
    expect(await statuses(r.app, LIMIT + 1)).toEqual([...Array(LIMIT).fill(401), 429]);

    // Known to this replica: served, fresh in the key cache, and read again past its TTL (5 s).
    expect((await ask(r.app, bearer(customer.key).authorization)).statusCode).toBe(200);
    clock.advance(6_000);
    const lookups = r.lookups();
    expect((await ask(r.app, bearer(customer.key).authorization)).statusCode).toBe(200);
    expect((await ask(r.app, bearer(known.key).authorization)).statusCode).toBe(403);
    expect(r.lookups()).toBe(lookups + 2);
    // A key this replica never read cannot be told from a guess without a lookup: refused.
    const blocked = await ask(r.app, bearer(unseen.key).authorization);
    expect(blocked.statusCode).toBe(429);
    // A 403 is not a failed authentication: a known key's answers never count against its address.
    const other = "198.51.100.7";
    for (let n = 0; n < LIMIT + 3; n++) {
      expect((await ask(r.app, bearer(known.key).authorization, { remoteAddress: other })).statusCode).toBe(
        403,
      );
    }
    expect((await ask(r.app, undefined, { remoteAddress: other })).statusCode).toBe(401);
  });

  it("counts the socket's peer without a trusted proxy, whatever X-Forwarded-For says", async () => {
    const r = await replica();
    const spoofed = Array.from({ length: LIMIT + 2 }, (_, n) => ({ forwardedFor: `192.0.2.${n}` }));
    const seen = [];
    for (const from of spoofed) seen.push((await ask(r.app, unknownKey(), from)).statusCode);
    expect(seen).toEqual([...Array(LIMIT).fill(401), 429, 429]);
  });

  it("behind a trusted proxy (TRUST_PROXY), counts the client it names, never what the client sent before it", async () => {
    const r = await replica({ env: { TRUST_PROXY: "10.0.0.2" } });
    const proxy = "10.0.0.2";
    // nginx appends the address it saw to whatever the client sent: the rightmost one counts.
    const viaProxy = (n: number) => ({ remoteAddress: proxy, forwardedFor: `192.0.2.${n}, 203.0.113.9` });
    const seen = [];
    for (let n = 0; n < LIMIT + 1; n++) seen.push((await ask(r.app, unknownKey(), viaProxy(n))).statusCode);
    expect(seen).toEqual([...Array(LIMIT).fill(401), 429]);
    // Another client through the same proxy, and the proxy's own address, are not blocked.
    expect(
      (await ask(r.app, unknownKey(), { remoteAddress: proxy, forwardedFor: "203.0.113.10" })).statusCode,
    ).toBe(401);
    expect((await ask(r.app, unknownKey(), { remoteAddress: proxy })).statusCode).toBe(401);
    // A peer that is not a trusted proxy is counted itself, its header ignored.
    const direct = { remoteAddress: "10.0.0.3", forwardedFor: "203.0.113.9" };
    expect((await ask(r.app, unknownKey(), direct)).statusCode).toBe(401);
  });

  describe.skipIf(!testRedisUrl())("with Redis", () => {
    it("is shared by two replicas through Redis", async () => {
      const prefix = `gmi:test:authfail:${process.pid}:${Date.now()}:`;
      const clock = manualClock(minuteStart + 10_000);
      const [a, b] = [
        await replica({ clock, limiter: sharedLimiter(prefix) }),
        await replica({ clock, limiter: sharedLimiter(prefix) }),
      ];
      if (!a || !b) throw new Error("no replicas");
      expect([...(await statuses(a.app, 3)), ...(await statuses(b.app, 2))]).toEqual(Array(LIMIT).fill(401));
      // The limit is reached on both: the next failure on either is refused, and so is the other's.
      expect((await ask(b.app, unknownKey())).statusCode).toBe(429);
      expect((await ask(a.app, unknownKey())).statusCode).toBe(429);
      expect((await ask(a.app, unknownKey())).statusCode).toBe(429);
      const redis = new Redis(testRedisUrl() ?? "");
      redisClients.push(redis);
      const counts = await redis.keys(`${prefix}authfail:127.0.0.1:m:*`);
      expect(counts).toHaveLength(1);
      expect(await redis.get(counts[0] ?? "")).toBe(String(LIMIT));
      await redis.del(...counts);
    });

    it("fails open to each replica's own count when Redis is down: no 5xx, the limit per replica", async () => {
      const limiter = sharedLimiter("gmi:test:down:", `redis://127.0.0.1:${await freePort()}`);
      const r = await replica({ limiter });
      const started = Date.now();
      expect(await statuses(r.app, LIMIT + 2)).toEqual([...Array(LIMIT).fill(401), 429, 429]);
      expect(limiter.healthy()).toBe(false);
      // The shared store is given up on quickly, then skipped for a while.
      expect(Date.now() - started).toBeLessThan(10_000);
    });
  });
});
