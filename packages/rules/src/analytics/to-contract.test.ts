import {
  BatchLiquidityRowSchema,
  ConditionRecommendationSchema,
  fourConditionRows,
  GameConditionRowSchema,
  GameSignalsSchema,
  LiquidityProfileSchema,
  LiquidityRowSchema,
  SearchConditionRowSchema,
  SearchRowSchema,
} from "@gmi/contract";
import { describe, expect, it } from "vitest";
import { buildConditionRows } from "./conditions.js";
import type { LiquiditySnapshotFields } from "./liquidity.js";
import { buildLiquidityRows } from "./liquidity.js";
import { recommendListingCondition } from "./listing-recommendation.js";
import { buildSearchRows } from "./search-rows.js";
import {
  priceString,
  toBatchLiquidityRow,
  toConditionRecommendation,
  toGameConditionRows,
  toGameSignals,
  toLiquidityProfile,
  toLiquidityRow,
  toPricing,
  toSearchConditionRows,
  toSearchRow,
} from "./to-contract.js";
import { DEFAULT_SCORING } from "./weights.js";

const chrono = {
  id: 101,
  name: "Chrono Trigger",
  slug: "chrono-trigger",
  console_id: 1,
  console_name: "Super Nintendo",
};
const pricing = toPricing({
  loose: 149.99,
  complete: { toFixed: (d: number) => (289).toFixed(d) },
  new: null,
});

const liquidity = buildLiquidityRows(
  [
    {
      gameId: 101,
      consoleId: 1,
      redirects: 412,
      distinctUsers: 318,
      watchCount: 57,
      searchCount: 930,
      redirects7d: 120,
      redirects30d: 400,
      priceComplete: 289,
    },
    {
      gameId: 102,
      consoleId: 1,
      redirects: 0,
      distinctUsers: 0,
      watchCount: 3,
      searchCount: 0,
      redirects7d: 0,
      redirects30d: 0,
      priceComplete: null,
    },
  ],
  DEFAULT_SCORING,
);
const top = liquidity.find((r) => r.scopeConsoleId === 0 && r.gameId === 101) as LiquiditySnapshotFields;
const idle = liquidity.find((r) => r.scopeConsoleId === 0 && r.gameId === 102) as LiquiditySnapshotFields;

describe("to-contract mappers produce rows the contract accepts", () => {
  it("formats prices as two-decimal strings, null when missing", () => {
    expect(pricing).toEqual({ loose: "149.99", complete: "289.00", new: null });
    expect(priceString("12.5")).toBe("12.50");
    expect(priceString("12.50")).toBe("12.50");
  });

  it("maps a leaderboard row, a profile, a batch row and signals", () => {
    const row = toLiquidityRow(top, "liquidity", chrono, pricing);
    expect(LiquidityRowSchema.parse(row)).toEqual(row);
    expect(row).toMatchObject({
      rank: 1,
      demand: { redirects: 412, index: top.demandIndex },
      momentum: { label: "rising" },
    });
    expect(LiquidityProfileSchema.parse(toLiquidityProfile(idle, chrono, pricing)).rank).toBeNull();
    expect(BatchLiquidityRowSchema.parse(toBatchLiquidityRow(top, chrono, pricing))).toHaveProperty(
      "found",
      true,
    );
    expect(GameSignalsSchema.parse(toGameSignals(top, chrono)).signals).toEqual({
      redirects: 412,
      distinct_users: 318,
      watch_count: 57,
      search_count: 930,
    });
  });

  it("refuses to put an unranked game on a leaderboard page", () => {
    expect(() => toLiquidityRow(idle, "demand", chrono, pricing)).toThrow(RangeError);
  });

  it("maps search rows for each sort, refusing a missing rank", () => {
    const [search] = buildSearchRows(
      [
        {
          scopeConsoleId: 0,
          query: "chrono trigger snes",
          searchCount: 4,
          pricingCount: 3,
          siteSearchCount: 1,
          distinctUsers: 3,
          mobileCount: 2,
          resultCountSum: 44,
          zeroResultCount: 1,
          searches7d: 0,
          searches30d: 0,
        },
      ],
      DEFAULT_SCORING,
    );
    if (!search) throw new Error("no row");
    expect(SearchRowSchema.parse(toSearchRow(search, "volume"))).toMatchObject({
      rank: 1,
      demand_score: 100,
    });
    // No search in 30 days: no momentum, yet a place on the momentum list (last).
    expect(toSearchRow(search, "momentum")).toMatchObject({
      rank: 1,
      momentum: { value: null, label: "unknown" },
    });
    // Below the unmet minimum of 5 searches: not on that list.
    expect(() => toSearchRow(search, "unmet")).toThrow(RangeError);
  });

  it("maps condition rows (any stored order) into the contract's four rows in rank order", () => {
    const rows = buildConditionRows(101, [
      { condition: "cib", searchCount: 2, distinctUsers: 2, mobileCount: 1, redirects: 4, watchCount: 1 },
      { condition: "loose", searchCount: 1, distinctUsers: 1, mobileCount: 1 },
    ]).reverse();
    expect(fourConditionRows(SearchConditionRowSchema).parse(toSearchConditionRows(rows))).toHaveLength(4);
    const game = fourConditionRows(GameConditionRowSchema).parse(toGameConditionRows(rows));
    expect(game[0]).toMatchObject({
      condition: "cib",
      redirects: 4,
      watch_count: 1,
      condition_share: 0.6667,
    });
  });

  it("maps a listing recommendation", () => {
    const rec = recommendListingCondition({
      loose: { price: 149.99, redirects: 150, watchCount: 20, searchCount: 30 },
      cib: { price: 289, redirects: 220, watchCount: 30, searchCount: 40 },
      new: { price: null, redirects: 30, watchCount: 4, searchCount: 0 },
    });
    const body = ConditionRecommendationSchema.parse(toConditionRecommendation(chrono, rec));
    expect(body.recommended).toBe("cib");
    expect(body.conditions.map((c) => c.price)).toEqual(["149.99", "289.00", null]);
  });
});
