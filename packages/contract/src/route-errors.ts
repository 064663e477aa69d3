import type { AppRoute } from "@ts-rest/core";
import { CODE_TO_STATUS, type ErrorCode, type ErrorStatus } from "./common/errors.js";
import { HEADERS } from "./common/headers.js";
import type { RouteMetadata } from "./routes/shared.js";

type Route = AppRoute & { metadata: RouteMetadata };

/** The fields of an object schema, through refinements (`z.object(…).superRefine(…)`); {} for none. */
export const shapeOf = (schema: unknown): Record<string, unknown> => {
  let node = schema as { shape?: Record<string, unknown>; _def?: { schema?: unknown } } | undefined;
  while (node && !node.shape && node._def?.schema) node = node._def.schema as typeof node;
  return node?.shape ?? {};
};

/**
 * The error codes one route can answer with, from its shape: every route needs a key of an active
 * account; a scope is checked only where the route has one; a 404 only where the route looks
 * something up by id (`metadata.notFound`); 402 and 429 only on metered routes (not
 * `metadata.metered: false`); a 422 only where there is something to validate; idempotency, body
 * size and media type only where there is a body. 405 belongs to a path, not to an operation, and
 * 501 is never answered (docs/internals/openapi.md, "Statuses per operation").
 */
export const errorCodesOf = (route: Route): ErrorCode[] => {
  const hasBody = "body" in route && route.body !== undefined;
  // A query schema refuses unknown parameters even when it names none (`/me?x=1`).
  const hasInput =
    hasBody ||
    (route.query !== undefined && route.query !== null) ||
    Object.keys(shapeOf(route.pathParams)).length > 0;
  const metered = route.metadata.metered !== false;
  const idempotent = HEADERS.idempotencyKey in shapeOf(route.headers);
  const codes: Array<ErrorCode | false> = [
    "unauthorized",
    metered && "quota_exceeded",
    "account_inactive",
    route.metadata.scope !== null && "insufficient_scope",
    route.metadata.notFound !== undefined && "not_found",
    idempotent && "idempotency_conflict",
    hasBody && "payload_too_large",
    hasBody && "unsupported_media_type",
    hasInput && "validation_failed",
    route.metadata.element !== undefined && "batch_too_large",
    idempotent && "idempotency_key_reuse",
    metered && "rate_limit_exceeded",
    "server_error",
    "service_unavailable",
  ];
  return codes.filter((code): code is ErrorCode => code !== false);
};

/** The error statuses of one route, ascending. */
export const errorStatusesOf = (route: Route): ErrorStatus[] =>
  [...new Set(errorCodesOf(route).map((code) => CODE_TO_STATUS[code]))].sort((a, b) => a - b);
