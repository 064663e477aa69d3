import { initContract } from "@ts-rest/core";
import { z } from "zod";
import { dataEnvelope } from "../common/envelope.js";
import { ScopeSchema } from "../common/errors.js";
import { NoQuerySchema } from "../common/params.js";
import { PlanSlugSchema } from "../plans.js";
import { meta } from "./shared.js";

const c = initContract();

export const AccountRecordSchema = z.object({
  organization: z.object({
    id: z.number().int().positive(),
    name: z.string(),
    status: z.enum(["active", "suspended"]),
  }),
  plan: z.object({
    /**
     * One of the four public plans, or the slug of a custom plan an organization was given (an
     * enterprise agreement): clients must not assume the four only.
     */
    slug: z.union([PlanSlugSchema, z.string().min(1)]),
    name: z.string(),
    rate_limit_per_minute: z.number().int().positive(),
    rate_limit_per_day: z.number().int().positive(),
    /** `null` on the unmetered plan (Enterprise). */
    monthly_quota: z.number().int().positive().nullable(),
    max_batch_size: z.number().int().positive(),
    max_page_size: z.number().int().positive(),
  }),
  api_key: z.object({ name: z.string(), last_four: z.string().length(4), scopes: z.array(ScopeSchema) }),
  usage: z.object({
    month: z.object({
      used: z.number().int().nonnegative(),
      quota: z.number().int().positive().nullable(),
      resets_in: z.number().int().nonnegative(),
    }),
    /** The per-day rate window (UTC day), as a day-window 429 is decided: an addition to the spec's record. */
    day: z.object({
      used: z.number().int().nonnegative(),
      limit: z.number().int().positive(),
      resets_in: z.number().int().nonnegative(),
    }),
  }),
});
export type AccountRecord = z.infer<typeof AccountRecordSchema>;

export const accountRoutes = c.router({
  me: {
    method: "GET",
    path: "/api/v1/me",
    query: NoQuerySchema,
    responses: { 200: dataEnvelope(AccountRecordSchema, {}) },
    summary: "The calling key's organization, plan, key and live usage",
    // Free, so that a customer stopped by a limit can still see their usage (docs/decisions.md).
    metadata: meta({ scope: null, metered: false }),
  },
});
