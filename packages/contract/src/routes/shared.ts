import type { z } from "zod";
import type { Scope } from "../common/errors.js";
import { PaginationQuerySchema } from "../common/pagination.js";
import { ConsoleScopeQuerySchema, IsoDateSchema, PeriodQuerySchema, PeriodSchema } from "../common/params.js";

/**
 * Route metadata. `scope` is the key scope the route requires (`null`: any valid key); the server's
 * auth layer reads it from here, so no route can exist without a decision about its scope.
 */
export type RouteMetadata = {
  scope: Scope | null;
  /** Batch routes: the schema of one element of `requests`, for per-item checks and the OpenAPI. */
  element?: z.ZodTypeAny;
  /** Routes that look one thing up by a path id: what a 404 names as `details.resource`. */
  notFound?: string;
  /** `false`: the route costs no unit and no limit refuses it (no 402, no 429): `/me`. */
  metered?: boolean;
};
export const meta = (metadata: RouteMetadata) => metadata;

export const ListQuerySchema = PeriodQuerySchema.merge(ConsoleScopeQuerySchema).merge(PaginationQuerySchema);

/** `meta` keys of a period-scoped answer. */
export const periodMeta = { period: PeriodSchema, period_date: IsoDateSchema };
