import { z } from "zod";

export const DEFAULT_LIMIT = 25;

/**
 * `limit` above the plan's max_page_size is capped silently (spec, Limits rule 6), so the schema
 * has no upper bound of its own; below 1 or not an integer is a 422.
 */
export const PaginationQuerySchema = z
  .object({
    limit: z.coerce
      .number({ invalid_type_error: "must be an integer" })
      .int("must be an integer")
      .min(1, "must be 1 or more")
      .max(2_147_483_647)
      .default(DEFAULT_LIMIT),
    page: z.coerce
      .number({ invalid_type_error: "must be an integer" })
      .int("must be an integer")
      .min(1, "must be 1 or more")
      .max(2_147_483_647)
      .default(1),
    cursor: z.string().min(1).max(512).optional(),
    paginate: z.enum(["page", "cursor"]).default("page"),
  })
  // Strict like every query schema (common/params.ts).
  .strict();
export type PaginationQuery = z.infer<typeof PaginationQuerySchema>;

export const PagePaginationSchema = z.object({
  mode: z.literal("page"),
  page: z.number().int().min(1),
  per_page: z.number().int().min(1),
  total: z.number().int().nonnegative(),
  last_page: z.number().int().min(1),
});

export const CursorPaginationSchema = z.object({
  mode: z.literal("cursor"),
  per_page: z.number().int().min(1),
  total: z.number().int().nonnegative(),
  /** `null` on the last page. */
  next_cursor: z.string().nullable(),
});

export const PaginationSchema = z.discriminatedUnion("mode", [PagePaginationSchema, CursorPaginationSchema]);
export type Pagination = z.infer<typeof PaginationSchema>;

export const LinksSchema = z.object({
  next: z.string().url().nullable(),
  prev: z.string().url().nullable(),
});
export type Links = z.infer<typeof LinksSchema>;
