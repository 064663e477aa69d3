import { describe, expect, it } from "vitest";
import { manualClock } from "../clock.js";
import { readCache } from "./read-cache.js";

describe("readCache", () => {
  it("shares one load per key, expires by TTL, forgets failures and evicts the least recently used", async () => {
    const clock = manualClock(0);
    const cache = readCache(clock, 2);
    let loads = 0;
    const load = async () => ++loads;
    expect(await Promise.all([cache.get("a", 1000, load), cache.get("a", 1000, load)])).toEqual([1, 1]);
    clock.advance(1001);
    expect(await cache.get("a", 1000, load)).toBe(2);
    await expect(cache.get("f", null, () => Promise.reject(new Error("x")))).rejects.toThrow("x");
    expect(await cache.get("f", null, load)).toBe(3);
    await cache.get("b", null, load); // a, f, b: "a" is evicted
    expect(await cache.get("f", null, load)).toBe(3);
    expect(await cache.get("a", 1000, load)).toBe(5);
  });
});
