import { initContract } from "@ts-rest/core";
import { z } from "zod";
import { BatchQuerySchema, batchBody, batchEnvelope, SignalsBatchElementSchema } from "../common/batch.js";
import { BatchRequestHeadersSchema } from "../common/headers.js";
import { GameIdentitySchema, MomentumSchema, NotFoundItemSchema } from "../common/rows.js";
import { meta } from "./shared.js";

const c = initContract();

const count = z.number().int().nonnegative();

/** Raw demand signals of one game over the period: the inputs of its liquidity score, unblended. */
export const GameSignalsSchema = z.object({
  game_id: z.number().int().positive(),
  found: z.literal(true),
  game: GameIdentitySchema,
  signals: z.object({
    redirects: count,
    distinct_users: count,
    watch_count: count,
    /** Searches resolved to this game in the period. */
    search_count: count,
  }),
  momentum: MomentumSchema,
});
export type GameSignals = z.infer<typeof GameSignalsSchema>;

export const signalsRoutes = c.router({
  batch: {
    method: "POST",
    path: "/api/v1/signals/batch",
    query: BatchQuerySchema,
    headers: BatchRequestHeadersSchema,
    body: batchBody(SignalsBatchElementSchema),
    responses: {
      200: batchEnvelope(z.union([GameSignalsSchema, NotFoundItemSchema])),
      207: batchEnvelope(z.union([GameSignalsSchema, NotFoundItemSchema])),
    },
    summary: "Raw demand signals for many games",
    description:
      "Same rules as the intelligence batch: per-item outcomes, 207 when mixed, metered per element.",
    metadata: meta({ scope: "intelligence.read", element: SignalsBatchElementSchema }),
  },
});
