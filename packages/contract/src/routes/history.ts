import { z } from "zod";
import { dataEnvelope } from "../common/envelope.js";
import { DecimalStringSchema, IsoDateSchema, PeriodSchema } from "../common/params.js";
import { GameIdentitySchema, PricingSchema } from "../common/rows.js";
import { HISTORY_MAX_DAYS, historySpanProblem } from "./history-range.js";

/**
 * `period` picks which stored snapshots are read: `day` (the default) gives each day's own activity,
 * `7d`/`30d` the trailing window ending on each date (smoother lines).
 */
export const HistoryQuerySchema = z
  .object({
    period: PeriodSchema.default("day"),
    from: IsoDateSchema.optional(),
    to: IsoDateSchema.optional(),
  })
  // Strict like every query schema (common/params.ts): an unknown parameter is a 422 naming it.
  .strict()
  // Both ends given: the span rule (history-range.ts) refuses the range before any read.
  .superRefine((query, ctx) => {
    const problem = query.from && query.to ? historySpanProblem(query.from, query.to) : null;
    if (problem) ctx.addIssue({ code: "custom", path: ["from"], message: problem });
  });
export type HistoryQuery = z.infer<typeof HistoryQuerySchema>;

/** One computed date: the game's all-consoles figures in the snapshot of that date. */
export const HistoryPointSchema = z.object({
  date: IsoDateSchema,
  liquidity_score: z.number().int().min(0).max(100),
  demand_index: z.number().min(0),
  redirects: z.number().int().nonnegative(),
  distinct_users: z.number().int().nonnegative(),
  watch_count: z.number().int().nonnegative(),
  search_count: z.number().int().nonnegative(),
});
export type HistoryPoint = z.infer<typeof HistoryPointSchema>;

/**
 * The catalog prices in force at the end of one day: those of the game's newest price observation
 * up to then; `null` before its first observation, or where that observation had no such price.
 */
export const HistoryPriceSchema = z.object({ date: IsoDateSchema, ...PricingSchema.shape });
export type HistoryPrice = z.infer<typeof HistoryPriceSchema>;

/** The spans the price changes are given over, in days back from the history's last date. */
export const PRICE_CHANGE_DAYS = [7, 30] as const;

/** How one condition's price moved over a span: `start` on its first date, `end` on its last. */
export const PriceChangeSchema = z.object({
  start: DecimalStringSchema,
  end: DecimalStringSchema,
  /** `end` − `start`, signed: "-5.00", "12.50". */
  change: z.string().regex(/^-?\d+\.\d{2}$/, "must be a signed decimal string like -5.00"),
  /** `change` / `start`, 4 decimals (0.0667 is +6.67 %); null when `start` is 0.00. */
  change_ratio: z.number().nullable(),
});
export type PriceChange = z.infer<typeof PriceChangeSchema>;

/** Each condition's price change from `since` to the history's `to`; null where either end has no price. */
export const PriceChangesSchema = z.object({
  days: z.number().int().positive(),
  since: IsoDateSchema,
  loose: PriceChangeSchema.nullable(),
  complete: PriceChangeSchema.nullable(),
  new: PriceChangeSchema.nullable(),
});
export type PriceChanges = z.infer<typeof PriceChangesSchema>;

export const GameHistorySchema = z.object({
  game: GameIdentitySchema,
  /** Oldest first; dates without a computed snapshot are absent (a gap, not a zero). */
  points: z.array(HistoryPointSchema).max(HISTORY_MAX_DAYS),
  /** Every day from `from` to `to`, oldest first: prices are known between snapshots too. */
  prices: z.array(HistoryPriceSchema).max(HISTORY_MAX_DAYS),
  /** One entry per span of PRICE_CHANGE_DAYS, shortest first, each ending on `to`. */
  price_changes: z.array(PriceChangesSchema).length(PRICE_CHANGE_DAYS.length),
});
export type GameHistory = z.infer<typeof GameHistorySchema>;

export const gameHistoryEnvelope = dataEnvelope(GameHistorySchema, {
  period: PeriodSchema,
  from: IsoDateSchema,
  to: IsoDateSchema,
});
