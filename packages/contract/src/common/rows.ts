import { z } from "zod";
import { DecimalStringSchema } from "./params.js";

const count = z.number().int().nonnegative();
const share = z.number().min(0).max(1);

export const GameIdentitySchema = z.object({
  id: z.number().int().positive(),
  name: z.string(),
  slug: z.string(),
  console_id: z.number().int().positive(),
  console_name: z.string(),
});
export type GameIdentity = z.infer<typeof GameIdentitySchema>;

export const MOMENTUM_LABELS = ["rising", "steady", "cooling", "unknown"] as const;

/** `value` is null exactly when the label is `unknown` (no 30-day baseline). */
export const MomentumSchema = z
  .object({
    value: z.number().nonnegative().nullable(),
    label: z.enum(MOMENTUM_LABELS),
  })
  .refine((m) => (m.value === null) === (m.label === "unknown"), {
    message: "value is null exactly when label is unknown",
  });
export type Momentum = z.infer<typeof MomentumSchema>;

export const DemandSchema = z.object({
  redirects: count,
  distinct_users: count,
  watch_count: count,
  index: share,
});

/** Catalog prices; `null` where the catalog has no price for that condition. */
export const PricingSchema = z.object({
  loose: DecimalStringSchema.nullable(),
  complete: DecimalStringSchema.nullable(),
  new: DecimalStringSchema.nullable(),
});
export type Pricing = z.infer<typeof PricingSchema>;

const liquidityFields = {
  game: GameIdentitySchema,
  demand: DemandSchema,
  momentum: MomentumSchema,
  pricing: PricingSchema,
  price_accessibility: share,
  liquidity_score: z.number().int().min(0).max(100),
};

export const LiquidityRowSchema = z.object({ rank: z.number().int().positive(), ...liquidityFields });
export type LiquidityRow = z.infer<typeof LiquidityRowSchema>;

/**
 * The per-game profile: `rank` is the game's place on the all-consoles `liquidity` leaderboard of
 * the period, `null` for a game with no redirect demand (it is not on the leaderboard).
 */
export const LiquidityProfileSchema = z.object({
  rank: z.number().int().positive().nullable(),
  ...liquidityFields,
});
export type LiquidityProfile = z.infer<typeof LiquidityProfileSchema>;

/** A batch item's row: no rank (as in the spec's example); `found: true` tells it from a not-found item. */
export const BatchLiquidityRowSchema = z.object({ ...liquidityFields, found: z.literal(true) });
export type BatchLiquidityRow = z.infer<typeof BatchLiquidityRowSchema>;

export const NotFoundItemSchema = z.object({ game_id: z.number().int(), found: z.literal(false) });
export type NotFoundItem = z.infer<typeof NotFoundItemSchema>;

export const SearchRowSchema = z.object({
  /** Rank by combined search volume within the period and scope, on every search list (spec). */
  rank: z.number().int().positive(),
  query: z.string(),
  search: z.object({
    search_count: count,
    pricing_count: count,
    site_search_count: count,
    distinct_users: count,
    mobile_share: share,
  }),
  results: z.object({
    avg_result_count: z.number().nonnegative(),
    zero_result_count: count,
    zero_result_share: share,
  }),
  momentum: MomentumSchema,
  demand_score: z.number().int().min(0).max(100),
});
export type SearchRow = z.infer<typeof SearchRowSchema>;

export const SEARCH_CONDITIONS = ["loose", "cib", "new", "any"] as const;
export const SearchConditionSchema = z.enum(SEARCH_CONDITIONS);
export type SearchCondition = z.infer<typeof SearchConditionSchema>;

export const SearchConditionRowSchema = z.object({
  rank: z.number().int().min(1).max(4),
  condition: SearchConditionSchema,
  search_count: count,
  condition_share: share,
  distinct_users: count,
  mobile_share: share,
});
export type SearchConditionRow = z.infer<typeof SearchConditionRowSchema>;

/** Exactly the four conditions, each once, ranked 1..4 in order, shares summing to about 1. */
export const fourConditionRows = <Row extends z.ZodType<SearchConditionRow>>(row: Row) =>
  z
    .array(row)
    .length(4)
    .superRefine((rows, ctx) => {
      const conditions = new Set(rows.map((r) => r.condition));
      if (conditions.size !== 4)
        ctx.addIssue({ code: z.ZodIssueCode.custom, message: "each condition once" });
      rows.forEach((r, i) => {
        if (r.rank !== i + 1)
          ctx.addIssue({ code: z.ZodIssueCode.custom, path: [i, "rank"], message: "rows in rank order" });
      });
      const total = rows.reduce((sum, r) => sum + r.condition_share, 0);
      const active = rows.some((r) => r.search_count > 0);
      if (active && Math.abs(total - 1) > 0.01) {
        ctx.addIssue({ code: z.ZodIssueCode.custom, message: "condition shares must sum to 1" });
      }
    });

export const ConsoleRecordSchema = z.object({
  id: z.number().int().positive(),
  name: z.string(),
  slug: z.string(),
  /** Enabled games in the catalog for this console. */
  game_count: count,
});
export type ConsoleRecord = z.infer<typeof ConsoleRecordSchema>;

export const GameTitleItemSchema = z.object({
  id: z.number().int().positive(),
  display_game_name: z.string(),
});
export const GameSlugItemSchema = z.object({
  id: z.number().int().positive(),
  marketplace_game_name: z.string(),
});

export const GameRecordSchema = z.object({
  id: z.number().int().positive(),
  display_game_name: z.string(),
  marketplace_game_name: z.string(),
  console_id: z.number().int().positive(),
  console_name: z.string(),
  console_slug: z.string(),
  prices: PricingSchema,
});
export type GameRecord = z.infer<typeof GameRecordSchema>;
