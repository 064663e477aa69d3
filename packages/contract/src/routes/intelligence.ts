import { initContract } from "@ts-rest/core";
import { z } from "zod";
import {
  BatchQuerySchema,
  batchBody,
  batchEnvelope,
  IntelligenceBatchElementSchema,
} from "../common/batch.js";
import { dataEnvelope, paginatedEnvelope } from "../common/envelope.js";
import { BatchRequestHeadersSchema } from "../common/headers.js";
import { DecimalStringSchema, IdSchema, PeriodQuerySchema } from "../common/params.js";
import {
  BatchLiquidityRowSchema,
  GameIdentitySchema,
  LiquidityProfileSchema,
  LiquidityRowSchema,
  NotFoundItemSchema,
} from "../common/rows.js";
import { gameHistoryEnvelope, HistoryQuerySchema } from "./history.js";
import { HISTORY_DEFAULT_DAYS, HISTORY_MAX_DAYS } from "./history-range.js";
import { ListQuerySchema, meta, periodMeta } from "./shared.js";

const c = initContract();

export const INTELLIGENCE_SORTS = ["liquidity", "demand", "value"] as const;
export const IntelligenceSortSchema = z.enum(INTELLIGENCE_SORTS);

export const IntelligenceListQuerySchema = ListQuerySchema.extend({
  sort: IntelligenceSortSchema.default("liquidity"),
});

export const LISTING_CONDITIONS = ["loose", "cib", "new"] as const;
export const ListingConditionSchema = z.enum(LISTING_CONDITIONS);

/** One condition a seller could list the game in, with its price, the demand for it and a score. */
export const ListingConditionRowSchema = z.object({
  condition: ListingConditionSchema,
  price: DecimalStringSchema.nullable(),
  demand: z.object({
    redirects: z.number().int().nonnegative(),
    watch_count: z.number().int().nonnegative(),
    search_count: z.number().int().nonnegative(),
    /** This condition's share of the game's condition-tagged demand. */
    share: z.number().min(0).max(1),
  }),
  score: z.number().int().min(0).max(100),
});

export const ConditionRecommendationSchema = z.object({
  game: GameIdentitySchema,
  /**
   * The highest-scoring condition that has a catalog price; `null` when the game has no price, or
   * when `sample_size` is below `min_sample_size`.
   */
  recommended: ListingConditionSchema.nullable(),
  conditions: z.array(ListingConditionRowSchema).length(3),
  /** The demand units behind the advice: redirects, alerts and searches tagged loose, cib or new. */
  sample_size: z.number().int().nonnegative(),
  /** The fewest units a recommendation needs; below it `recommended` is `null`. */
  min_sample_size: z.number().int().positive(),
});
export type ConditionRecommendation = z.infer<typeof ConditionRecommendationSchema>;

const GamePathSchema = z.object({ id: IdSchema });
const BatchItemDataSchema = z.union([BatchLiquidityRowSchema, NotFoundItemSchema]);

export const intelligenceRoutes = c.router({
  list: {
    method: "GET",
    path: "/api/v1/intelligence",
    query: IntelligenceListQuerySchema,
    responses: {
      200: paginatedEnvelope(LiquidityRowSchema, { ...periodMeta, sort: IntelligenceSortSchema }),
    },
    summary: "Liquidity leaderboard",
    description: "Games with redirect demand in the period, ranked by the chosen sort.",
    metadata: meta({ scope: "intelligence.read" }),
  },
  get: {
    method: "GET",
    path: "/api/v1/intelligence/:id",
    pathParams: GamePathSchema,
    query: PeriodQuerySchema,
    responses: { 200: dataEnvelope(LiquidityProfileSchema, periodMeta) },
    summary: "Liquidity profile of one game",
    description: "Any enabled game resolves, zero demand included; 404 for an unknown or disabled id.",
    metadata: meta({ scope: "intelligence.read", notFound: "game" }),
  },
  conditions: {
    method: "GET",
    path: "/api/v1/intelligence/:id/conditions",
    pathParams: GamePathSchema,
    query: PeriodQuerySchema,
    responses: { 200: dataEnvelope(ConditionRecommendationSchema, periodMeta) },
    summary: "Listing condition recommendation for one game",
    metadata: meta({ scope: "intelligence.read", notFound: "game" }),
  },
  history: {
    method: "GET",
    path: "/api/v1/intelligence/:id/history",
    pathParams: GamePathSchema,
    query: HistoryQuerySchema,
    responses: { 200: gameHistoryEnvelope },
    summary: "Daily history of one game (beyond the interface)",
    description:
      "The game's liquidity score, demand index, redirects, distinct users, watch and search counts on each " +
      `computed date from \`from\` to \`to\` (at most ${HISTORY_MAX_DAYS} days; default the ${HISTORY_DEFAULT_DAYS} days ` +
      "ending on the latest computed date). Dates without a snapshot are absent. Beside them: `prices`, the catalog " +
      "prices in force on every day of the range (null before the game's first price observation), and " +
      "`price_changes`, each condition's change over the 7 and 30 days ending on `to`.",
    metadata: meta({ scope: "intelligence.read", notFound: "game" }),
  },
  batch: {
    method: "POST",
    path: "/api/v1/intelligence/batch",
    query: BatchQuerySchema,
    headers: BatchRequestHeadersSchema,
    body: batchBody(IntelligenceBatchElementSchema),
    responses: {
      200: batchEnvelope(BatchItemDataSchema),
      207: batchEnvelope(BatchItemDataSchema),
    },
    summary: "Score many games in one request",
    description: "One item per element, in request order; 207 when outcomes are mixed. Metered per element.",
    metadata: meta({ scope: "intelligence.read", element: IntelligenceBatchElementSchema }),
  },
});
