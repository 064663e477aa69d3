import { describe, expect, it } from "vitest";
import { largestRemainderShares, ratio, round4, roundScore } from "./rounding.js";

describe("rounding", () => {
  it("rounds half up to 4 decimals", () => {
    expect(round4(0.12345)).toBe(0.1235);
    expect(round4(2 / 3)).toBe(0.6667);
    expect(round4(1)).toBe(1);
  });

  it("rounds scores half up despite binary error, clamped to 0..100", () => {
    // 100 · (0.7·0.5 + 0.3·0.75) = 57.5 exactly on paper.
    expect(roundScore(100 * (0.7 * 0.5 + 0.3 * 0.75))).toBe(58);
    expect(roundScore(72.49)).toBe(72);
    expect(roundScore(100.4)).toBe(100);
    expect(roundScore(-0.2)).toBe(0);
  });

  it("divides by zero as no signal", () => {
    expect(ratio(3, 0)).toBe(0);
    expect(ratio(1, 4)).toBe(0.25);
  });
});

describe("largest remainder shares", () => {
  const units = (shares: number[]) => shares.reduce((sum, s) => sum + Math.round(s * 10_000), 0);

  it("sums thirds to exactly 1, the extra unit to the first in tie order", () => {
    // 3333.33 each: floors give 9999, one unit left; equal remainders → the earliest entry.
    expect(largestRemainderShares([1, 1, 1, 0])).toEqual([0.3334, 0.3333, 0.3333, 0]);
  });

  it("gives the left-over units to the largest remainders", () => {
    // 2/7 = 2857.142…, 4/7 = 5714.285…, 1/7 = 1428.571…: floors 9999, the 1/7 entry has the largest remainder.
    const shares = largestRemainderShares([2, 4, 1]);
    expect(shares).toEqual([0.2857, 0.5714, 0.1429]);
    expect(units(shares)).toBe(10_000);
  });

  it("is all zeros when nothing was counted", () => {
    expect(largestRemainderShares([0, 0, 0, 0])).toEqual([0, 0, 0, 0]);
  });

  it("sums to 1 on awkward totals", () => {
    for (const counts of [
      [7, 11, 13, 17],
      [1, 2, 3, 999_994],
      [5_200, 3_000, 1_300, 500],
      [1, 0, 0, 0],
    ]) {
      expect(units(largestRemainderShares(counts))).toBe(10_000);
    }
  });
});
