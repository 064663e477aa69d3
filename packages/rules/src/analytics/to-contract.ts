import type {
  BatchLiquidityRow,
  ConditionRecommendation,
  GameConditionRow,
  GameIdentity,
  GameSignals,
  INTELLIGENCE_SORTS,
  LiquidityProfile,
  LiquidityRow,
  Pricing,
  SEARCH_SORTS,
  SearchCondition,
  SearchConditionRow,
  SearchRow,
} from "@gmi/contract";
import { SEARCH_CONDITIONS } from "@gmi/contract";
import {
  type ListingCondition,
  type ListingRecommendation,
  recommendListingCondition,
} from "./listing-recommendation.js";
import { asMomentumLabel } from "./momentum.js";
import type { ConditionSnapshotRow, LiquiditySnapshotRow, SearchSnapshotRow } from "./rows.js";

export type IntelligenceSort = (typeof INTELLIGENCE_SORTS)[number];
export type SearchSort = (typeof SEARCH_SORTS)[number];

/** Snapshot rows as read back (db/tables/snapshot-rows.ts): text columns are plain strings. */
export type StoredLiquidityRow = LiquiditySnapshotRow;
/** The sums kept for the next date's slide are not read back. */
export type StoredSearchRow = Omit<SearchSnapshotRow, "mobileCount" | "resultCountSum">;
export type StoredConditionRow = ConditionSnapshotRow;

/** A catalog price as stored: a Prisma `Decimal` (anything with `toFixed`), a number or a string. */
export type PriceValue = number | string | { toFixed(digits: number): string } | null | undefined;

/** The contract's decimal string, always two decimals ("289.00"); null for a missing price. */
export const priceString = (value: PriceValue): string | null => {
  if (value === null || value === undefined) return null;
  if (typeof value === "string") return /^\d+\.\d{2}$/.test(value) ? value : Number(value).toFixed(2);
  return value.toFixed(2);
};

export const toPricing = (prices: { loose: PriceValue; complete: PriceValue; new: PriceValue }): Pricing => ({
  loose: priceString(prices.loose),
  complete: priceString(prices.complete),
  new: priceString(prices.new),
});

const liquidityFields = (row: StoredLiquidityRow, game: GameIdentity, pricing: Pricing) => ({
  game,
  demand: {
    redirects: row.redirects,
    distinct_users: row.distinctUsers,
    watch_count: row.watchCount,
    index: row.demandIndex,
  },
  momentum: { value: row.momentumValue, label: asMomentumLabel(row.momentumLabel) },
  pricing,
  price_accessibility: row.priceAccessibility,
  liquidity_score: row.liquidityScore,
});

const LIQUIDITY_RANK = { liquidity: "rankLiquidity", demand: "rankDemand", value: "rankValue" } as const;

/** A leaderboard row; the row must be on the leaderboard (a rank for `sort`), else it is a caller bug. */
export const toLiquidityRow = (
  row: StoredLiquidityRow,
  sort: IntelligenceSort,
  game: GameIdentity,
  pricing: Pricing,
): LiquidityRow => {
  const rank = row[LIQUIDITY_RANK[sort]];
  if (rank === null) throw new RangeError(`game ${row.gameId} has no ${sort} rank in this snapshot`);
  return { rank, ...liquidityFields(row, game, pricing) };
};

/** The profile reads the game's all-consoles row: rank = its liquidity rank there, or null. */
export const toLiquidityProfile = (
  row: StoredLiquidityRow,
  game: GameIdentity,
  pricing: Pricing,
): LiquidityProfile => ({ rank: row.rankLiquidity, ...liquidityFields(row, game, pricing) });

export const toBatchLiquidityRow = (
  row: StoredLiquidityRow,
  game: GameIdentity,
  pricing: Pricing,
): BatchLiquidityRow => ({ ...liquidityFields(row, game, pricing), found: true });

export const toGameSignals = (row: StoredLiquidityRow, game: GameIdentity): GameSignals => ({
  game_id: game.id,
  found: true,
  game,
  signals: {
    redirects: row.redirects,
    distinct_users: row.distinctUsers,
    watch_count: row.watchCount,
    search_count: row.searchCount,
  },
  momentum: { value: row.momentumValue, label: asMomentumLabel(row.momentumLabel) },
});

const SEARCH_RANK = { volume: "rankVolume", momentum: "rankMomentum", unmet: "rankUnmet" } as const;

/** A row's place in the `sort` order of its list; the row must be in that list, else it is a caller bug. */
export const searchPlace = (row: StoredSearchRow, sort: SearchSort): number => {
  const place = row[SEARCH_RANK[sort]];
  if (place === null) throw new RangeError(`query "${row.query}" has no ${sort} rank in this snapshot`);
  return place;
};

/**
 * A search row in any of the three lists. Its `rank` is always the rank by combined search volume
 * within the period and scope, as the spec defines a search row's `rank` ("Precomputed rank by
 * combined search volume"): on `/trending` and `/unmet` it is not the row's place in the list,
 * which the list's order (and cursors) carry instead (docs/decisions.md).
 */
export const toSearchRow = (row: StoredSearchRow, sort: SearchSort): SearchRow => {
  searchPlace(row, sort);
  return {
    rank: row.rankVolume,
    query: row.query,
    search: {
      search_count: row.searchCount,
      pricing_count: row.pricingCount,
      site_search_count: row.siteSearchCount,
      distinct_users: row.distinctUsers,
      mobile_share: row.mobileShare,
    },
    results: {
      avg_result_count: row.avgResultCount,
      zero_result_count: row.zeroResultCount,
      zero_result_share: row.zeroResultShare,
    },
    momentum: { value: row.momentumValue, label: asMomentumLabel(row.momentumLabel) },
    demand_score: row.demandScore,
  };
};

const asCondition = (condition: string): SearchCondition => {
  if (!(SEARCH_CONDITIONS as readonly string[]).includes(condition)) {
    throw new TypeError(`unknown condition: ${condition}`);
  }
  return condition as SearchCondition;
};

export const toSearchConditionRow = (row: StoredConditionRow): SearchConditionRow => ({
  rank: row.rank,
  condition: asCondition(row.condition),
  search_count: row.searchCount,
  condition_share: row.conditionShare,
  distinct_users: row.distinctUsers,
  mobile_share: row.mobileShare,
});

export const toGameConditionRow = (row: StoredConditionRow): GameConditionRow => ({
  ...toSearchConditionRow(row),
  redirects: row.redirects,
  watch_count: row.watchCount,
});

/** The four rows of one game (or market-wide) in rank order, as the contract requires. */
export const toSearchConditionRows = (rows: readonly StoredConditionRow[]): SearchConditionRow[] =>
  [...rows].sort((a, b) => a.rank - b.rank).map(toSearchConditionRow);

export const toGameConditionRows = (rows: readonly StoredConditionRow[]): GameConditionRow[] =>
  [...rows].sort((a, b) => a.rank - b.rank).map(toGameConditionRow);

export const toConditionRecommendation = (
  game: GameIdentity,
  recommendation: ListingRecommendation,
): ConditionRecommendation => ({
  game,
  recommended: recommendation.recommended,
  conditions: recommendation.conditions.map((c) => ({
    condition: c.condition,
    price: priceString(c.price),
    demand: {
      redirects: c.demand.redirects,
      watch_count: c.demand.watchCount,
      search_count: c.demand.searchCount,
      share: c.demand.share,
    },
    score: c.score,
  })),
  sample_size: recommendation.sampleSize,
  min_sample_size: recommendation.minSampleSize,
});

/** A game's catalog prices, by the catalog's names (decimal strings, null: not sold so). */
export type CatalogPrices = { loose: string | null; complete: string | null; new: string | null };

const PRICE_OF: Record<ListingCondition, keyof CatalogPrices> = {
  loose: "loose",
  cib: "complete",
  new: "new",
};

/** Which condition to list a game in, from its catalog prices and its demand by condition. */
export const conditionRecommendation = (
  game: GameIdentity,
  prices: CatalogPrices,
  rows: readonly GameConditionRow[],
): ConditionRecommendation => {
  const input = (condition: ListingCondition) => {
    const row = rows.find((r) => r.condition === condition);
    const price = prices[PRICE_OF[condition]];
    return {
      price: price === null ? null : Number(price),
      redirects: row?.redirects ?? 0,
      watchCount: row?.watch_count ?? 0,
      searchCount: row?.search_count ?? 0,
    };
  };
  const recommendation = recommendListingCondition({
    loose: input("loose"),
    cib: input("cib"),
    new: input("new"),
  });
  return toConditionRecommendation(game, recommendation);
};
