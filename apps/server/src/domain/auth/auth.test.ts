import { PLANS } from "@gmi/contract";
import { describe, expect, it, vi } from "vitest";
import { manualClock } from "../../clock.js";
import type { ApiError } from "../../errors.js";
import { bearerToken, generateApiKey, hashApiKey, isWellFormedKey, keyHashMemo } from "./api-key.js";
import type { KeyRecord } from "./authorize.js";
import { authorize } from "./authorize.js";
import { cachedKeyLookup } from "./key-cache.js";
import { buildRouteTable, routeKey } from "./scope-table.js";

const record = (over: Partial<KeyRecord> = {}): KeyRecord => ({
  keyId: 1,
  keyName: "k",
  lastFour: "abcd",
  scopes: ["games.read"],
  expiresAt: null,
  revokedAt: null,
  organization: { id: 1, name: "o", status: "active" },
  client: null,
  plan: PLANS.free,
  ...over,
});

const codeOf = (fn: () => unknown) => {
  try {
    fn();
  } catch (error) {
    return (error as ApiError).toBody().error;
  }
  return null;
};

describe("api keys", () => {
  it("have a recognisable prefix, 256 bits of randomness and a SHA-256 hash", () => {
    const a = generateApiKey();
    expect(a.key).toMatch(/^gmi_live_[A-Za-z0-9_-]{43}$/);
    expect(isWellFormedKey(a.key)).toBe(true);
    expect(a.hash).toBe(hashApiKey(a.key));
    expect(a.hash).toMatch(/^[0-9a-f]{64}$/);
    expect(a.lastFour).toBe(a.key.slice(-4));
    expect(generateApiKey().key).not.toBe(a.key);
  });

  it("are read from a Bearer header only", () => {
    expect(bearerToken("Bearer abc")).toBe("abc");
    expect(bearerToken("bearer abc")).toBe("abc");
    expect(bearerToken("Basic abc")).toBeNull();
    expect(bearerToken(undefined)).toBeNull();
    expect(isWellFormedKey("gmi_live_short")).toBe(false);
  });

  it("hash the same through the memo, past its bound too", () => {
    const hashOf = keyHashMemo(2);
    const keys = [1, 2, 3].map(() => generateApiKey());
    for (const { key, hash } of [...keys, ...keys, ...keys.reverse()]) expect(hashOf(key)).toBe(hash);
  });
});

describe("authorize", () => {
  const now = Date.UTC(2026, 0, 1);
  it("401 for unknown, revoked and expired keys", () => {
    expect(codeOf(() => authorize(null, null, now))?.code).toBe("unauthorized");
    expect(codeOf(() => authorize(record({ revokedAt: now - 1 }), null, now))?.code).toBe("unauthorized");
    expect(codeOf(() => authorize(record({ expiresAt: now }), null, now))?.code).toBe("unauthorized");
  });
  it("403 account_inactive before insufficient_scope", () => {
    const org = record({ organization: { id: 1, name: "o", status: "suspended" } });
    expect(codeOf(() => authorize(org, "intelligence.read", now))).toMatchObject({
      code: "account_inactive",
      details: { subject: "organization", status: "suspended" },
    });
    expect(
      codeOf(() => authorize(record({ client: { id: 2, status: "suspended" } }), null, now)),
    ).toMatchObject({
      details: { subject: "api_client" },
    });
    expect(codeOf(() => authorize(record(), "intelligence.read", now))).toMatchObject({
      code: "insufficient_scope",
      details: { required_scope: "intelligence.read" },
    });
    expect(authorize(record(), "games.read", now).keyId).toBe(1);
    expect(authorize(record(), null, now).keyId).toBe(1);
  });
});

describe("key cache", () => {
  it("serves lookups (found or not) for the TTL only", async () => {
    const clock = manualClock(0);
    const lookup = vi.fn(async (hash: string) => (hash === "known" ? record() : null));
    const cached = cachedKeyLookup(lookup, clock, 5_000);
    await cached("known");
    await cached("known");
    expect(lookup).toHaveBeenCalledTimes(1);
    clock.advance(5_000);
    await cached("known");
    expect(lookup).toHaveBeenCalledTimes(2);
    await cached("unknown");
    await cached("unknown");
    expect(lookup).toHaveBeenCalledTimes(3);
    clock.advance(5_000);
    await cached("unknown");
    expect(lookup).toHaveBeenCalledTimes(4);
  });

  /** A cache whose read-ahead runs when the test says so. */
  const readAhead = (records: Map<string, KeyRecord>) => {
    const clock = manualClock(0);
    const lookup = vi.fn(async (hash: string) => records.get(hash) ?? null);
    const lookupMany = vi.fn(
      async (hashes: string[]) =>
        new Map(hashes.flatMap((h) => (records.has(h) ? [[h, records.get(h) as KeyRecord] as const] : []))),
    );
    const queued: Array<() => void> = [];
    const cached = cachedKeyLookup(lookup, clock, 4_000, {
      lookupMany,
      schedule: (work) => queued.push(work),
    });
    const runQueued = async () => {
      for (const work of queued.splice(0)) work();
      await new Promise((resolve) => setImmediate(resolve));
    };
    return { clock, lookup, lookupMany, cached, runQueued };
  };

  it("reads keys in use again ahead of expiry, many in one read, and sees a revocation within the TTL", async () => {
    const records = new Map([
      ["a", record({ keyId: 1 })],
      ["b", record({ keyId: 2 })],
      ["idle", record({ keyId: 3 })],
    ]);
    const { clock, lookup, lookupMany, cached, runQueued } = readAhead(records);
    await cached("a");
    await cached("b");
    await cached("idle");
    expect(lookup).toHaveBeenCalledTimes(3);
    // Before half the TTL nothing is due.
    clock.advance(1_999);
    await cached("a");
    await runQueued();
    expect(lookupMany).not.toHaveBeenCalled();
    clock.advance(1);
    await cached("a");
    await cached("b");
    records.set("a", record({ keyId: 1, revokedAt: 2_000 }));
    await runQueued();
    // One read for both keys in use; the key not asked for since its read is left to expire.
    expect(lookupMany).toHaveBeenCalledTimes(1);
    expect(lookupMany.mock.calls[0]?.[0]?.sort()).toEqual(["a", "b"]);
    expect((await cached("a"))?.revokedAt).toBe(2_000);
    // Past the first read's TTL: "a" and "b" are still fresh (read at 2,000), "idle" is read again.
    clock.advance(2_500);
    await cached("b");
    await cached("idle");
    expect(lookup).toHaveBeenCalledTimes(4);
    expect(lookup).toHaveBeenLastCalledWith("idle");
  });

  it("trusts a read-ahead for the TTL from the read's start, and a failed one lets keys expire", async () => {
    const records = new Map([["a", record()]]);
    const { clock, lookup, lookupMany, cached, runQueued } = readAhead(records);
    await cached("a");
    clock.advance(2_000);
    await cached("a");
    lookupMany.mockRejectedValueOnce(new Error("database down"));
    await runQueued();
    clock.advance(1_999);
    await cached("a");
    expect(lookup).toHaveBeenCalledTimes(1);
    clock.advance(1);
    await cached("a");
    expect(lookup).toHaveBeenCalledTimes(2);
  });

  it("answers a fresh key at once, known or unknown, and counts it as in use for the read-ahead", async () => {
    const { clock, lookup, lookupMany, cached, runQueued } = readAhead(new Map([["a", record()]]));
    expect(cached.cached?.("a")).toBeUndefined();
    await cached("a");
    await cached("nope");
    expect(cached.cached?.("a")?.record?.keyId).toBe(1);
    expect(cached.cached?.("nope")).toMatchObject({ record: null });
    clock.advance(2_000);
    expect(cached.cached?.("a")?.record?.keyId).toBe(1);
    await runQueued();
    expect(lookupMany.mock.calls).toEqual([[["a", "nope"]]]);
    clock.advance(4_000);
    expect(cached.cached?.("a")).toBeUndefined();
    expect(lookup).toHaveBeenCalledTimes(2);
  });

  it("shares one read among concurrent misses of a key", async () => {
    const { lookup, cached } = readAhead(new Map([["a", record()]]));
    const answers = await Promise.all([cached("a"), cached("a"), cached("a")]);
    expect(answers.map((r) => r?.keyId)).toEqual([1, 1, 1]);
    expect(lookup).toHaveBeenCalledTimes(1);
  });
});

describe("route table", () => {
  it("has every contract route with its scope", () => {
    const table = buildRouteTable();
    expect(table.get(routeKey("GET", "/api/v1/me"))).toEqual({
      name: "account.me",
      scope: null,
      batch: false,
      metered: false,
    });
    expect(table.get(routeKey("POST", "/api/v1/intelligence/batch"))).toMatchObject({
      scope: "intelligence.read",
      batch: true,
      metered: true,
    });
    expect(table.get(routeKey("GET", "/api/v1/games/game/:id"))?.scope).toBe("games.read");
  });
});
