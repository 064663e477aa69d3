import { describe, expect, it } from "vitest";
import { apportion, trendFactor } from "./events.js";
import { cumulative, drawIndex, hashUnit, mulberry32, substream } from "./prng.js";
import { misspell } from "./queries.js";
import { slugify } from "./titles.js";

describe("seeded randomness", () => {
  it("repeats a sequence for a seed and stays in [0, 1)", () => {
    const a = mulberry32(42);
    const b = mulberry32(42);
    const xs = Array.from({ length: 1_000 }, () => a());
    expect(Array.from({ length: 1_000 }, () => b())).toEqual(xs);
    expect(xs.every((x) => x >= 0 && x < 1)).toBe(true);
  });

  it("gives independent streams per label", () => {
    expect(substream(1, "catalog")()).not.toBe(substream(1, "events")());
    expect(hashUnit(1, 5)).toBe(hashUnit(1, 5));
  });

  it("draws indexes in proportion to their weights", () => {
    const rng = mulberry32(7);
    const sums = cumulative([1, 0, 3]);
    const hits = [0, 0, 0];
    for (let i = 0; i < 20_000; i += 1) {
      const index = drawIndex(rng, sums);
      hits[index] = (hits[index] ?? 0) + 1;
    }
    expect(hits[1]).toBe(0);
    expect((hits[2] ?? 0) / (hits[0] ?? 1)).toBeCloseTo(3, 0);
  });
});

describe("demo helpers", () => {
  it("apportions whole counts that add up exactly", () => {
    expect(apportion(10, [1, 1, 1])).toEqual([3, 4, 3]);
    expect(apportion(50_000, [1.25, 0.88, 0.92, 0.95, 1, 1.06, 1.3]).reduce((a, b) => a + b, 0)).toBe(50_000);
  });

  it("ramps rising titles up and cooling ones down over the window", () => {
    expect(trendFactor("rising", 1) / trendFactor("rising", 0)).toBeCloseTo(10);
    expect(trendFactor("cooling", 1)).toBeLessThan(trendFactor("cooling", 0));
    expect(trendFactor("flat", 0.5)).toBe(1);
  });

  it("misspells by one letter", () => {
    const typo = misspell(mulberry32(3), "Chrono Trigger");
    expect(typo).not.toBe("Chrono Trigger");
    expect(Math.abs(typo.length - "Chrono Trigger".length)).toBeLessThanOrEqual(1);
  });

  it("slugs titles the way the marketplace does", () => {
    expect(slugify("The Legend of Zelda: Link's Awakening DX")).toBe(
      "the-legend-of-zelda-links-awakening-dx",
    );
    expect(slugify("Ys Book I & II")).toBe("ys-book-i-and-ii");
    expect(slugify("Pokémon Snap")).toBe("pokemon-snap");
  });
});
