import { z } from "zod";

/**
 * The closed list of error codes. The first twelve are the spec's; the rest are ours for the
 * framework-level failures the spec does not name (docs/decisions.md, "Errors").
 */
export const ERROR_CODES = [
  "unauthorized",
  "account_inactive",
  "insufficient_scope",
  "quota_exceeded",
  "not_found",
  "idempotency_conflict",
  "validation_failed",
  "batch_too_large",
  "idempotency_key_reuse",
  "rate_limit_exceeded",
  "not_implemented",
  "server_error",
  "method_not_allowed",
  "payload_too_large",
  "unsupported_media_type",
  "service_unavailable",
] as const;

export const ErrorCodeSchema = z.enum(ERROR_CODES);
export type ErrorCode = z.infer<typeof ErrorCodeSchema>;

/** One status per code, so a code always means the same HTTP status. */
export const CODE_TO_STATUS = {
  unauthorized: 401,
  account_inactive: 403,
  insufficient_scope: 403,
  quota_exceeded: 402,
  not_found: 404,
  idempotency_conflict: 409,
  validation_failed: 422,
  batch_too_large: 422,
  idempotency_key_reuse: 422,
  rate_limit_exceeded: 429,
  not_implemented: 501,
  server_error: 500,
  method_not_allowed: 405,
  payload_too_large: 413,
  unsupported_media_type: 415,
  service_unavailable: 503,
} as const satisfies Record<ErrorCode, number>;

export type ErrorStatus = (typeof CODE_TO_STATUS)[ErrorCode];

export const ScopeSchema = z.enum(["intelligence.read", "demand-intent.read", "games.read"]);
export type Scope = z.infer<typeof ScopeSchema>;
export const SCOPES = ScopeSchema.options;

const ValidationIssueSchema = z.object({
  location: z.enum(["query", "path", "body", "header"]),
  /** Dotted path of the bad field inside its location, e.g. `limit` or `requests.3.game_id`. */
  field: z.string(),
  message: z.string(),
});
export type ValidationIssue = z.infer<typeof ValidationIssueSchema>;

/** The typed `details` of each code; a code absent here carries no details. */
export const ErrorDetailsSchemas = {
  insufficient_scope: z.object({ required_scope: ScopeSchema }),
  batch_too_large: z.object({ max_items: z.number().int(), received: z.number().int() }),
  rate_limit_exceeded: z.object({ window: z.enum(["minute", "day"]), limit: z.number().int() }),
  quota_exceeded: z.object({
    quota: z.number().int(),
    used: z.number().int(),
    resets_in: z.number().int().nonnegative(),
  }),
  account_inactive: z.object({
    subject: z.enum(["organization", "api_client"]),
    status: z.string(),
  }),
  not_found: z.object({ resource: z.string(), id: z.union([z.string(), z.number()]).optional() }),
  validation_failed: z.object({
    issues: z.array(ValidationIssueSchema).min(1),
    /**
     * On a `date` without computed data: the computed dates of the period as runs of consecutive
     * days (`first`..`last`, both `YYYY-MM-DD`, oldest first, the newest 100 runs), gaps shown.
     */
    available_dates: z.array(z.object({ first: z.string(), last: z.string() })).optional(),
  }),
  idempotency_conflict: z.object({ idempotency_key: z.string(), retry_after: z.number().int() }),
  idempotency_key_reuse: z.object({ idempotency_key: z.string() }),
  method_not_allowed: z.object({ allowed: z.array(z.string()) }),
  payload_too_large: z.object({ max_bytes: z.number().int() }),
  unsupported_media_type: z.object({ expected: z.string() }),
  server_error: z.object({ request_id: z.string() }),
} satisfies Partial<Record<ErrorCode, z.ZodTypeAny>>;

type DetailsOf<C extends ErrorCode> = C extends keyof typeof ErrorDetailsSchemas
  ? z.infer<(typeof ErrorDetailsSchemas)[C]>
  : never;

/** An error body narrowed by its code: `switch (e.code)` gives the matching `details`. */
export type ErrorBodyOf<C extends ErrorCode> = {
  code: C;
  message: string;
  details?: DetailsOf<C>;
};
export type TypedErrorBody = { [C in ErrorCode]: ErrorBodyOf<C> }[ErrorCode];

/** The wire shape: `details` is checked against its code's schema where the code has one. */
export const ErrorBodySchema = z
  .object({
    code: ErrorCodeSchema,
    message: z.string().min(1),
    details: z.record(z.unknown()).optional(),
  })
  .superRefine((body, ctx) => {
    const schema = (ErrorDetailsSchemas as Record<string, z.ZodTypeAny>)[body.code];
    if (body.details === undefined) return;
    if (!schema) {
      ctx.addIssue({
        code: z.ZodIssueCode.custom,
        path: ["details"],
        message: `${body.code} has no details`,
      });
      return;
    }
    const parsed = schema.safeParse(body.details);
    if (!parsed.success) {
      for (const issue of parsed.error.issues) ctx.addIssue({ ...issue, path: ["details", ...issue.path] });
    }
  });
export type ErrorBody = z.infer<typeof ErrorBodySchema>;

export const ErrorEnvelopeSchema = z.object({ error: ErrorBodySchema });
export type ErrorEnvelope = z.infer<typeof ErrorEnvelopeSchema>;
