import { describe, expect, it } from "vitest";
import { BoundedMap, jsonWeight } from "./bounded-map.js";

describe("BoundedMap", () => {
  it("evicts the least recently used past its entry count or its weight", () => {
    const map = new BoundedMap<string, number>(3, 100);
    map.set("a", 1, 10);
    map.set("b", 2, 10);
    map.set("c", 3, 10);
    expect(map.get("a")).toBe(1); // a is now the most recent
    map.set("d", 4, 10); // 4 entries: b goes
    expect(map.get("b")).toBeUndefined();
    expect(map.size).toBe(3);
    map.set("e", 5, 85); // weight 10 + 10 + 10 + 85: the oldest go until it fits
    expect(map.weight).toBeLessThanOrEqual(100);
    expect(map.get("e")).toBe(5);
  });

  it("weighs an entry later only if it still holds the value, and drops stale entries from the old end", () => {
    const map = new BoundedMap<string, { until: number }>(10, 50);
    const first = { until: 1 };
    map.set("x", first);
    map.set("x", { until: 5 });
    map.weigh("x", first, 1_000); // replaced meanwhile: ignored
    expect(map.weight).toBe(0);
    map.set("y", { until: 2 });
    map.weigh("y", map.get("y") as { until: number }, 60); // over the cap: evicted in turn
    expect(map.weight).toBeLessThanOrEqual(50);
    map.set("z", { until: 9 });
    map.dropWhile((v) => v.until < 6);
    expect(map.size).toBe(1);
    expect(jsonWeight({ a: "bc" })).toBe(10);
  });
});
