import { describe, expect, it } from "vitest";
import type { ListingConditionInput } from "./listing-recommendation.js";
import { LISTING_MIN_SAMPLE, recommendListingCondition } from "./listing-recommendation.js";

const input = (
  price: number | null,
  redirects = 0,
  watchCount = 0,
  searchCount = 0,
): ListingConditionInput => ({
  price,
  redirects,
  watchCount,
  searchCount,
});

describe("recommendListingCondition", () => {
  it("Chrono Trigger: cib leads on demand (290 of 524 units) and price", () => {
    const result = recommendListingCondition({
      loose: input(149.99, 150, 20, 30),
      cib: input(289, 220, 30, 40),
      new: input(null, 30, 4, 0),
    });
    // Shares by largest remainder of 200, 290, 34 over 524: 3816.79, 5534.35, 648.85 → floors 9998,
    // the two units go to new (.85) and loose (.79).
    // loose: 100·(.7·200/290 + .3·149.99/289) = 48.276 + 15.570 = 63.85 → 64; cib: 70 + 30 = 100.
    expect(result.recommended).toBe("cib");
    expect(result.conditions.map((c) => [c.condition, c.demand.share, c.score])).toEqual([
      ["loose", 0.3817, 64],
      ["cib", 0.5534, 100],
      ["new", 0.0649, 0],
    ]);
    expect(result.conditions[0]?.demand).toEqual({
      redirects: 150,
      watchCount: 20,
      searchCount: 30,
      share: 0.3817,
    });
  });

  it("recommends nothing for a game without any price", () => {
    const result = recommendListingCondition({
      loose: input(null, 5),
      cib: input(null, 9),
      new: input(null),
    });
    expect(result.recommended).toBeNull();
    expect(result.conditions.map((c) => c.score)).toEqual([0, 0, 0]);
  });

  it("without demand, scores on price alone (100·.3·10/40 = 7.5 → 8, 15, 30) and recommends nothing", () => {
    const result = recommendListingCondition({ loose: input(10), cib: input(20), new: input(40) });
    expect(result.conditions.map((c) => [c.score, c.demand.share])).toEqual([
      [8, 0],
      [15, 0],
      [30, 0],
    ]);
    expect(result.recommended).toBeNull();
    expect(result).toMatchObject({ sampleSize: 0, minSampleSize: LISTING_MIN_SAMPLE });
  });

  it("needs the minimum sample: one watch scores 100 but is no recommendation; five units are", () => {
    const one = recommendListingCondition({ loose: input(10), cib: input(20), new: input(40, 0, 1) });
    expect(one.conditions.map((c) => c.score)).toEqual([8, 15, 100]);
    expect(one).toMatchObject({ recommended: null, sampleSize: 1 });
    const four = recommendListingCondition({ loose: input(10, 1), cib: input(20, 1, 1, 1), new: input(40) });
    expect(four).toMatchObject({ recommended: null, sampleSize: 4 });
    const five = recommendListingCondition({ loose: input(10, 1), cib: input(20, 2, 1, 1), new: input(40) });
    expect(five).toMatchObject({ recommended: "cib", sampleSize: 5, minSampleSize: 5 });
  });

  it("does not recommend the most demanded condition when it has no price", () => {
    // new: 80 units but no price → 0. Both prices are the max (15): loose .7·10/80 + .3 = .3875 → 39,
    // cib .7·20/80 + .3 = .475 → 47.5 → 48.
    const result = recommendListingCondition({
      loose: input(15, 10),
      cib: input(15, 20),
      new: input(null, 80),
    });
    expect(result.conditions.map((c) => c.score)).toEqual([39, 48, 0]);
    expect(result.recommended).toBe("cib");
  });

  it("breaks equal scores by demand, then price, then loose, cib, new", () => {
    const tie = recommendListingCondition({ loose: input(10, 5), cib: input(10, 5), new: input(null) });
    expect(tie.conditions.map((c) => c.score)).toEqual([100, 100, 0]);
    expect(tie.recommended).toBe("loose");
  });
});
