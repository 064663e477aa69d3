import { describe, expect, it, vi } from "vitest";
import { type Clock, manualClock } from "../clock.js";
import type { KeyRecord } from "../domain/auth/authorize.js";
import { cachedKeyLookup } from "./key-cache.js";
import { unknownKeys } from "./unknown-keys.js";

/** The cache never looks inside a record: an id (and a revocation) tells them apart. */
const record = (over: { keyId?: number; revokedAt?: number } = {}) => ({ keyId: 1, ...over }) as KeyRecord;

/** The negative cache beside it: unknown hashes for 60 s. */
const negative = (clock: Clock) =>
  unknownKeys(clock, { ttlMs: 60_000, maxEntries: 1_000, maxBytes: 1_048_576 });

describe("key cache", () => {
  it("serves a key found for the TTL, and one not found for the negative cache's lifetime", async () => {
    const clock = manualClock(0);
    const lookup = vi.fn(async (hash: string) => (hash === "known" ? record() : null));
    const cached = cachedKeyLookup(lookup, clock, 5_000, { unknown: negative(clock) });
    await cached("known");
    await cached("known");
    expect(lookup).toHaveBeenCalledTimes(1);
    clock.advance(5_000);
    await cached("known");
    expect(lookup).toHaveBeenCalledTimes(2);
    expect(await cached("unknown")).toBeNull();
    clock.advance(59_999);
    expect(await cached("unknown")).toBeNull();
    expect(cached.cached?.("unknown")).toEqual({ record: null });
    expect(lookup).toHaveBeenCalledTimes(3);
    clock.advance(1);
    expect(cached.cached?.("unknown")).toBeUndefined();
    await cached("unknown");
    expect(lookup).toHaveBeenCalledTimes(4);
  });

  it("keeps the keys it read through a flood of unknown ones, known however long ago", async () => {
    const clock = manualClock(0);
    const lookup = vi.fn(async (hash: string) => (hash.startsWith("key") ? record() : null));
    const cached = cachedKeyLookup(lookup, clock, 5_000, { unknown: negative(clock), maxEntries: 2 });
    await cached("key-a");
    await cached("key-b");
    for (let n = 0; n < 500; n++) await cached(`made-up-${n}`);
    clock.advance(10_000);
    // Past the TTL: read again before it is trusted, but still known to this process.
    expect(cached.cached?.("key-b")).toBeUndefined();
    expect([cached.known?.("key-a"), cached.known?.("key-b"), cached.known?.("made-up-1")]).toEqual([
      true,
      true,
      false,
    ]);
    await cached("key-c");
    // Evicted by another key (the one not asked for since), never by unknown ones.
    expect([cached.known?.("key-a"), cached.known?.("key-b")]).toEqual([false, true]);
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
      unknown: negative(clock),
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
    // Only keys that exist are read ahead: an unknown one waits out its own lifetime.
    expect(lookupMany.mock.calls).toEqual([[["a"]]]);
    clock.advance(4_000);
    expect(cached.cached?.("a")).toBeUndefined();
    expect(cached.cached?.("nope")).toMatchObject({ record: null });
    expect(lookup).toHaveBeenCalledTimes(2);
  });

  it("moves a key whose row is gone to the negative cache, never serving it again", async () => {
    const records = new Map([["a", record()]]);
    const { clock, lookup, cached, runQueued } = readAhead(records);
    await cached("a");
    clock.advance(2_000);
    await cached("a");
    records.delete("a");
    await runQueued();
    expect(cached.cached?.("a")).toEqual({ record: null });
    expect(cached.known?.("a")).toBe(false);
    expect(await cached("a")).toBeNull();
    expect(lookup).toHaveBeenCalledTimes(1);
  });

  it("shares one read among concurrent misses of a key", async () => {
    const { lookup, cached } = readAhead(new Map([["a", record()]]));
    const answers = await Promise.all([cached("a"), cached("a"), cached("a")]);
    expect(answers.map((r) => r?.keyId)).toEqual([1, 1, 1]);
    expect(lookup).toHaveBeenCalledTimes(1);
  });
});
