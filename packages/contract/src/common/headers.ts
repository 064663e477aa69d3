import { z } from "zod";

/** Header names, lower-cased as Node and fetch present them. */
export const HEADERS = {
  authorization: "authorization",
  idempotencyKey: "idempotency-key",
  requestId: "x-request-id",
  rateLimitLimit: "x-ratelimit-limit",
  rateLimitRemaining: "x-ratelimit-remaining",
  rateLimitReset: "x-ratelimit-reset",
  retryAfter: "retry-after",
  idempotencyReplayed: "idempotency-replayed",
} as const;

/**
 * Idempotency keys: 1-255 printable ASCII characters without spaces (a UUID fits), so a key can be
 * stored, logged and compared byte for byte.
 */
export const IdempotencyKeySchema = z
  .string()
  .min(1, "must not be empty")
  .max(255, "must be at most 255 characters")
  .regex(/^[\x21-\x7e]+$/, "must be printable ASCII without spaces");

/**
 * `authorization` stays optional in the schema on purpose: a missing key is a 401 from the auth
 * layer, not a 422 from validation.
 */
export const RequestHeadersSchema = z.object({
  authorization: z.string().optional(),
});

export const BatchRequestHeadersSchema = RequestHeadersSchema.extend({
  "idempotency-key": IdempotencyKeySchema.optional(),
});

const intHeader = z.coerce.number().int().nonnegative();

/** Headers on every response to an authenticated request. */
export const RateLimitHeadersSchema = z.object({
  "x-request-id": z.string().uuid(),
  "x-ratelimit-limit": intHeader,
  "x-ratelimit-remaining": intHeader,
  "x-ratelimit-reset": intHeader,
});

export const ResponseHeadersSchema = RateLimitHeadersSchema.extend({
  "retry-after": intHeader.optional(),
  "idempotency-replayed": z.literal("true").optional(),
});
export type ResponseHeaders = z.infer<typeof ResponseHeadersSchema>;
