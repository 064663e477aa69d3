import { describe, expect, it } from "vitest";
import { buildConditionRows, MARKET_WIDE } from "./conditions.js";

describe("market-wide condition rows", () => {
  it("ranks by search count and shares 5200/3000/1300/500 of 10000", () => {
    const rows = buildConditionRows(MARKET_WIDE, [
      { condition: "new", searchCount: 500, distinctUsers: 410, mobileCount: 305 },
      { condition: "any", searchCount: 1_300, distinctUsers: 990, mobileCount: 1_001 },
      { condition: "loose", searchCount: 5_200, distinctUsers: 3_100, mobileCount: 3_848 },
      { condition: "cib", searchCount: 3_000, distinctUsers: 2_050, mobileCount: 2_070 },
    ]);
    expect(rows).toEqual([
      {
        gameId: 0,
        condition: "loose",
        rank: 1,
        searchCount: 5_200,
        conditionShare: 0.52,
        distinctUsers: 3_100,
        mobileShare: 0.74,
        redirects: 0,
        watchCount: 0,
        mobileCount: 3_848,
      },
      {
        gameId: 0,
        condition: "cib",
        rank: 2,
        searchCount: 3_000,
        conditionShare: 0.3,
        distinctUsers: 2_050,
        mobileShare: 0.69,
        redirects: 0,
        watchCount: 0,
        mobileCount: 2_070,
      },
      {
        gameId: 0,
        condition: "any",
        rank: 3,
        searchCount: 1_300,
        conditionShare: 0.13,
        distinctUsers: 990,
        mobileShare: 0.77,
        redirects: 0,
        watchCount: 0,
        mobileCount: 1_001,
      },
      {
        gameId: 0,
        condition: "new",
        rank: 4,
        searchCount: 500,
        conditionShare: 0.05,
        distinctUsers: 410,
        mobileShare: 0.61,
        redirects: 0,
        watchCount: 0,
        mobileCount: 305,
      },
    ]);
  });

  it("splits thirds so the shares sum to exactly 1, the odd unit to the first in fixed order", () => {
    const rows = buildConditionRows(MARKET_WIDE, [
      { condition: "new", searchCount: 1, distinctUsers: 1, mobileCount: 1 },
      { condition: "cib", searchCount: 1, distinctUsers: 1, mobileCount: 0 },
      { condition: "loose", searchCount: 1, distinctUsers: 1, mobileCount: 0 },
    ]);
    expect(rows.map((r) => [r.condition, r.rank, r.conditionShare])).toEqual([
      ["loose", 1, 0.3334],
      ["cib", 2, 0.3333],
      ["new", 3, 0.3333],
      ["any", 4, 0],
    ]);
    expect(rows.reduce((sum, r) => sum + Math.round(r.conditionShare * 10_000), 0)).toBe(10_000);
  });

  it("puts zeroed rows last in the fixed order loose, cib, new, any", () => {
    const rows = buildConditionRows(MARKET_WIDE, [
      { condition: "any", searchCount: 3, distinctUsers: 2, mobileCount: 3 },
    ]);
    expect(rows.map((r) => [r.condition, r.rank, r.conditionShare, r.mobileShare])).toEqual([
      ["any", 1, 1, 1],
      ["loose", 2, 0, 0],
      ["cib", 3, 0, 0],
      ["new", 4, 0, 0],
    ]);
  });

  it("is four zeroed rows in fixed order for an empty period", () => {
    const rows = buildConditionRows(MARKET_WIDE, []);
    expect(rows.map((r) => [r.condition, r.rank, r.searchCount, r.conditionShare])).toEqual([
      ["loose", 1, 0, 0],
      ["cib", 2, 0, 0],
      ["new", 3, 0, 0],
      ["any", 4, 0, 0],
    ]);
  });

  it("refuses a condition twice", () => {
    const twice = { condition: "cib", searchCount: 1, distinctUsers: 1, mobileCount: 1 } as const;
    expect(() => buildConditionRows(MARKET_WIDE, [twice, twice])).toThrow(RangeError);
  });
});

describe("per-game condition rows", () => {
  it("carries the game's redirects and alerts per condition, none on any", () => {
    const rows = buildConditionRows(101, [
      {
        condition: "cib",
        searchCount: 40,
        distinctUsers: 31,
        mobileCount: 28,
        redirects: 220,
        watchCount: 30,
      },
      {
        condition: "loose",
        searchCount: 30,
        distinctUsers: 25,
        mobileCount: 24,
        redirects: 150,
        watchCount: 20,
      },
      { condition: "any", searchCount: 10, distinctUsers: 9, mobileCount: 6, redirects: 5, watchCount: 5 },
      { condition: "new", searchCount: 0, distinctUsers: 0, mobileCount: 0, redirects: 30, watchCount: 4 },
    ]);
    expect(
      rows.map((r) => [r.gameId, r.condition, r.rank, r.conditionShare, r.redirects, r.watchCount]),
    ).toEqual([
      [101, "cib", 1, 0.5, 220, 30],
      [101, "loose", 2, 0.375, 150, 20],
      [101, "any", 3, 0.125, 0, 0],
      [101, "new", 4, 0, 30, 4],
    ]);
  });
});
