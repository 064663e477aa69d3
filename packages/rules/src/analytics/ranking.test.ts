import { describe, expect, it } from "vitest";
import { mulberry32 } from "../prng.js";
import { desc, stableSortDescBy } from "./ranking.js";

describe("stableSortDescBy", () => {
  it("gives the order of a stable comparator sort, ties kept in input order", () => {
    const rng = mulberry32(7);
    // Few distinct keys (counts, rounded shares), a zero of each sign, and many distinct floats.
    const keys = [
      () => Math.floor(rng() * 5),
      () => Math.round(rng() * 3) / 4,
      () => (rng() < 0.5 ? 0 : -0),
      rng,
    ];
    for (const key of keys) {
      const items = Array.from({ length: 3_000 }, (_, id) => ({ id, key: key() }));
      const expected = [...items].sort((a, b) => desc(a.key, b.key));
      expect(stableSortDescBy(items, (item) => item.key).map((item) => item.id)).toEqual(
        expected.map((item) => item.id),
      );
    }
  });

  it("leaves its input as it was", () => {
    const items = [1, 3, 2];
    expect(stableSortDescBy(items, (n) => n)).toEqual([3, 2, 1]);
    expect(items).toEqual([1, 3, 2]);
  });
});
