import { describe, expect, it } from "vitest";
import { manualClock } from "../clock.js";
import { blockedClients } from "./blocked-clients.js";
import { unknownKeys } from "./unknown-keys.js";

describe("unknown keys", () => {
  it("holds a hash for its lifetime, bounded by entries and by bytes, hashes asked again kept", () => {
    const clock = manualClock(0);
    const byCount = unknownKeys(clock, { ttlMs: 1_000, maxEntries: 3, maxBytes: 1_048_576 });
    for (const hash of ["a", "b", "c"]) byCount.add(hash);
    expect(byCount.has("a")).toBe(true);
    byCount.add("d");
    // "a" was asked for since it was added: "b", the oldest not asked, went first.
    expect(["a", "b", "c", "d"].map((hash) => byCount.has(hash))).toEqual([true, false, true, true]);
    clock.advance(999);
    expect(byCount.has("d")).toBe(true);
    clock.advance(1);
    expect(byCount.has("d")).toBe(false);

    const byBytes = unknownKeys(clock, { ttlMs: 1_000, maxEntries: 1_000, maxBytes: 2 * 72 });
    for (const hash of ["a", "b", "c"]) byBytes.add(hash);
    expect(["a", "b", "c"].map((hash) => byBytes.has(hash))).toEqual([false, true, true]);
    byBytes.delete("c");
    expect(byBytes.has("c")).toBe(false);
  });
});

describe("blocked clients", () => {
  it("holds a block until it ends, bounded", () => {
    const blocked = blockedClients(2);
    blocked.block("203.0.113.7", 60_000);
    expect(blocked.until("203.0.113.7", 59_999)).toBe(60_000);
    expect(blocked.until("203.0.113.7", 60_000)).toBeNull();
    expect(blocked.until("203.0.113.8", 0)).toBeNull();
    for (const client of ["a", "b", "c"]) blocked.block(client, 120_000);
    expect(["a", "b", "c"].map((client) => blocked.until(client, 0))).toEqual([null, 120_000, 120_000]);
  });
});
