import { z } from "zod";
import { dataEnvelope } from "../common/envelope.js";
import { IsoDateSchema, PeriodSchema } from "../common/params.js";
import { GameIdentitySchema } from "../common/rows.js";
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

export const GameHistorySchema = z.object({
  game: GameIdentitySchema,
  /** Oldest first; dates without a computed snapshot are absent (a gap, not a zero). */
  points: z.array(HistoryPointSchema).max(HISTORY_MAX_DAYS),
});
export type GameHistory = z.infer<typeof GameHistorySchema>;

export const gameHistoryEnvelope = dataEnvelope(GameHistorySchema, {
  period: PeriodSchema,
  from: IsoDateSchema,
  to: IsoDateSchema,
});
