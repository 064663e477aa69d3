import { describe, expect, it } from "vitest";
import { BoundedMap, jsonWeight } from "./bounded-map.js";

describe("BoundedMap", () => {
  it("evicts entries not used since they were set before the ones that were", () => {
    const map = new BoundedMap<string, number>(4, 1_000);
    for (const [i, key] of ["a", "b", "c", "d"].entries()) map.set(key, i);
    expect(map.get("a")).toBe(0);
    expect(map.get("c")).toBe(2);
    map.set("e", 4);
    map.set("f", 5);
    // b and d were never asked for: they go, although a is older than both.
    expect(map.get("b")).toBeUndefined();
    expect(map.get("d")).toBeUndefined();
    expect([map.get("a"), map.get("c"), map.get("e"), map.get("f")]).toEqual([0, 2, 4, 5]);
    expect(map.size).toBe(4);
  });

  it("evicts by weight, the unused first, and keeps no entry heavier than the cap, evicting nothing for it", () => {
    const map = new BoundedMap<string, number>(10, 100);
    map.set("a", 1, 30);
    map.set("b", 2, 30);
    map.set("c", 3, 30);
    map.get("a");
    map.set("d", 4, 30); // 120: b, the oldest unused, goes
    expect(map.get("b")).toBeUndefined();
    expect(map.get("a")).toBe(1);
    expect(map.weight).toBe(90);
    map.set("huge", 5, 101);
    expect(map.get("huge")).toBeUndefined();
    expect([map.peek("a"), map.peek("c"), map.peek("d")]).toEqual([1, 3, 4]);
    expect(map.weight).toBe(90);
  });

  it("peeks and lists entries, oldest first, without marking them as used", () => {
    const map = new BoundedMap<string, number>(2, 1_000);
    map.set("a", 1);
    map.set("b", 2);
    expect(map.peek("a")).toBe(1);
    expect([...map.entries()]).toEqual([
      ["a", 1],
      ["b", 2],
    ]);
    map.set("c", 3); // "a" was only looked at: the oldest unused, it goes
    expect([...map.entries()]).toEqual([
      ["b", 2],
      ["c", 3],
    ]);
  });

  it("holds both bounds and keeps its weight exact under any mix of calls", () => {
    const map = new BoundedMap<number, number>(50, 5_000);
    let seed = 7;
    let largest = { size: 0, weight: 0 };
    const random = (below: number) => {
      seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
      return Math.floor((seed / 2_147_483_648) * below);
    };
    for (let i = 0; i < 20_000; i++) {
      const key = random(200);
      const op = random(10);
      if (op < 5) map.get(key);
      else if (op < 8) map.set(key, key, random(200));
      else if (op < 9) map.weigh(key, key, random(200));
      else map.delete(key);
      largest = { size: Math.max(largest.size, map.size), weight: Math.max(largest.weight, map.weight) };
    }
    expect(largest.size).toBe(50);
    expect(largest.weight).toBeGreaterThan(4_000);
    expect(largest.weight).toBeLessThanOrEqual(5_000);
    for (let key = 0; key < 200; key++) map.delete(key);
    expect(map.size).toBe(0);
    expect(map.weight).toBe(0);
  });

  it("evicts exactly as a walk begun afresh from the oldest entry would, with the walk kept between calls", () => {
    // The reference: second chance with a new walk from the oldest entry at every eviction.
    const reference = new Map<number, { weight: number; used: boolean }>();
    let referenceWeight = 0;
    const evictReference = () => {
      for (const [key, slot] of reference) {
        if (reference.size <= 40 && referenceWeight <= 3_000) return;
        reference.delete(key);
        if (slot.used) reference.set(key, { ...slot, used: false });
        else referenceWeight -= slot.weight;
      }
    };
    const map = new BoundedMap<number, number>(40, 3_000);
    let seed = 11;
    const random = (below: number) => {
      seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
      return Math.floor((seed / 2_147_483_648) * below);
    };
    for (let i = 0; i < 20_000; i++) {
      const key = random(300);
      const op = random(10);
      const known = reference.get(key);
      if (op < 5) {
        map.get(key);
        if (known) known.used = true;
      } else if (op < 9) {
        const weight = random(150);
        map.set(key, key, weight);
        if (known) {
          reference.delete(key);
          referenceWeight -= known.weight;
        }
        if (weight <= 3_000) {
          reference.set(key, { weight, used: false });
          referenceWeight += weight;
          evictReference();
        }
      } else {
        map.delete(key);
        if (known) {
          reference.delete(key);
          referenceWeight -= known.weight;
        }
      }
      if (i % 97 === 0) expect([...map.entries()].map(([k]) => k)).toEqual([...reference.keys()]);
    }
    expect([...map.entries()].map(([k]) => k)).toEqual([...reference.keys()]);
    expect(map.weight).toBe(referenceWeight);
  });

  it("weighs an entry later only if it still holds the value", () => {
    const map = new BoundedMap<string, { until: number }>(10, 50);
    const first = { until: 1 };
    map.set("x", first);
    map.set("x", { until: 5 });
    map.weigh("x", first, 1_000); // replaced meanwhile: ignored
    expect(map.weight).toBe(0);
    map.set("y", { until: 2 });
    map.weigh("y", map.get("y") as { until: number }, 60); // over the cap: evicted in turn
    expect(map.weight).toBeLessThanOrEqual(50);
    expect(jsonWeight({ a: "bc" })).toBe(10);
  });
});
