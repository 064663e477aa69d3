import { LISTING_CONDITIONS } from "@gmi/contract";
import { desc } from "./ranking.js";
import { largestRemainderShares, ratio, roundScore } from "./rounding.js";

export type ListingCondition = (typeof LISTING_CONDITIONS)[number];

/** One listing condition of one game over the period: its catalog price and the demand tagged with it. */
export type ListingConditionInput = {
  /** Catalog price in currency units (`cib` = the complete price); null when the catalog has none. */
  price: number | null;
  /** The game's redirects, active alerts and searches tagged with this condition in the window. */
  redirects: number;
  watchCount: number;
  searchCount: number;
};

export type ListingConditionScore = {
  condition: ListingCondition;
  price: number | null;
  demand: { redirects: number; watchCount: number; searchCount: number; share: number };
  score: number;
};

export type ListingRecommendation = {
  recommended: ListingCondition | null;
  /** Always loose, cib, new in that order. */
  conditions: ListingConditionScore[];
  /** The demand units the advice rests on: redirects, alerts and searches tagged with a condition. */
  sampleSize: number;
  /** Below this many units there is no recommendation (LISTING_MIN_SAMPLE). */
  minSampleSize: number;
};

/**
 * The fewest condition-tagged demand units (over the three conditions) a recommendation needs: one
 * watch, or no demand at all, is no evidence of which condition sells. The same 5 as the unmet
 * list's minimum search count, which excludes one-off searches for the same reason.
 */
export const LISTING_MIN_SAMPLE = 5;

/** Demand decides most (what buyers ask for), price level the rest (what a sale brings in). */
export const LISTING_DEMAND_WEIGHT = 0.7;
export const LISTING_PRICE_WEIGHT = 0.3;

/**
 * demand units = redirects + alerts + searches tagged with the condition; share = units / all three.
 * score = 100·(0.7·share/max_share + 0.3·price/max_price), max over the three conditions (prices:
 * over the priced ones); a condition without a price scores 0, since it cannot be listed at a known
 * price. recommended = the best score among priced conditions (ties: larger share, higher price,
 * then loose, cib, new); null when no condition has a price, or when the units of all three are
 * fewer than `minSample` (the scores are still shown: they describe the demand there is).
 */
export const recommendListingCondition = (
  inputs: Readonly<Record<ListingCondition, ListingConditionInput>>,
  minSample: number = LISTING_MIN_SAMPLE,
): ListingRecommendation => {
  const entries = LISTING_CONDITIONS.map((condition) => ({ condition, ...inputs[condition] }));
  const units = entries.map((e) => e.redirects + e.watchCount + e.searchCount);
  const total = units.reduce((sum, u) => sum + u, 0);
  const maxUnits = Math.max(...units);
  const maxPrice = entries.reduce((max, e) => Math.max(max, e.price ?? 0), 0);
  const shares = largestRemainderShares(units);
  const scored = entries.map((e, order) => {
    const demandUnits = units[order] ?? 0;
    const score =
      e.price === null
        ? 0
        : roundScore(
            100 *
              (LISTING_DEMAND_WEIGHT * ratio(demandUnits, maxUnits) +
                LISTING_PRICE_WEIGHT * ratio(e.price, maxPrice)),
          );
    return {
      order,
      units: demandUnits,
      result: {
        condition: e.condition,
        price: e.price,
        demand: {
          redirects: e.redirects,
          watchCount: e.watchCount,
          searchCount: e.searchCount,
          share: total > 0 ? (shares[order] ?? 0) : 0,
        },
        score,
      },
    };
  });
  const best = scored
    .filter((s) => s.result.price !== null)
    .sort(
      (a, b) =>
        desc(a.result.score, b.result.score) ||
        desc(a.units, b.units) ||
        desc(a.result.price ?? 0, b.result.price ?? 0) ||
        a.order - b.order,
    )[0];
  return {
    recommended: total >= minSample ? (best?.result.condition ?? null) : null,
    conditions: scored.map((s) => s.result),
    sampleSize: total,
    minSampleSize: minSample,
  };
};
