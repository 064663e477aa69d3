import type { z } from "zod";
import { ERROR_CODES, type ErrorCode, ErrorDetailsSchemas } from "./common/errors.js";
import { HEADERS } from "./common/headers.js";
import { exampleErrors } from "./examples.js";
import { type createSchemaConverter, type JsonSchema, pascal, ref } from "./openapi-schema.js";

/**
 * The error side of the OpenAPI document: response headers, one schema per error code (its
 * `details` typed), and one response per status and set of codes an operation can answer with.
 */

const integerHeader = (description: string, required = false) => ({
  description,
  required,
  schema: { type: "integer", minimum: 0 },
});

export const HEADER_COMPONENTS = {
  RequestId: {
    description: "UUID of this request in the server logs; quote it when reporting a problem.",
    required: true,
    schema: { type: "string", format: "uuid" },
  },
  RateLimitLimit: integerHeader("Requests per minute allowed by your plan."),
  RateLimitRemaining: integerHeader("Requests left in the current one-minute window."),
  RateLimitReset: integerHeader("Seconds until the one-minute window resets."),
  RetryAfter: integerHeader("Seconds to wait before retrying.", true),
  IdempotencyReplayed: {
    description: "`true` when this is the stored answer of an earlier request with the same Idempotency-Key.",
    schema: { type: "string", const: "true" },
  },
};

const rateLimitHeaders = {
  [HEADERS.rateLimitLimit]: ref("headers", "RateLimitLimit"),
  [HEADERS.rateLimitRemaining]: ref("headers", "RateLimitRemaining"),
  [HEADERS.rateLimitReset]: ref("headers", "RateLimitReset"),
};

/** Headers of an answer with this status: the request id always, the limits once the key is known. */
export const headersFor = (status: number, batch: boolean) => ({
  [HEADERS.requestId]: ref("headers", "RequestId"),
  ...(status === 401 ? {} : rateLimitHeaders),
  ...([402, 409, 429].includes(status) ? { [HEADERS.retryAfter]: ref("headers", "RetryAfter") } : {}),
  ...(status === 503 ? { [HEADERS.retryAfter]: { ...HEADER_COMPONENTS.RetryAfter, required: false } } : {}),
  ...(batch && status < 300 ? { [HEADERS.idempotencyReplayed]: ref("headers", "IdempotencyReplayed") } : {}),
});

const STATUS_TEXT: Record<number, string> = {
  401: "The API key is missing, malformed, unknown, revoked or expired.",
  402: "The monthly quota is used up (plans without overage).",
  403: "The account is suspended, or the key lacks the route's scope.",
  404: "No enabled game with this id.",
  409: "A request with this Idempotency-Key is still in flight; retry after `Retry-After` seconds.",
  413: "The body is too large.",
  415: "The body is not `application/json`.",
  422: "A parameter or the body is invalid; `details` names every bad field.",
  429: "A rate window (minute or day) is exhausted; retry after `Retry-After` seconds.",
  500: "An unexpected error; quote `details.request_id`.",
  503: "Temporarily unavailable (database unreachable, or analytics not computed yet); retry.",
};

const errorSchemaName = (code: ErrorCode) => `${pascal(code)}Error`;

/** The response component of one status limited to some codes, e.g. a 403 without scope checks. */
const errorResponseName = (codes: ErrorCode[]) => codes.map(pascal).join("Or");

/** `ErrorBody` (a batch item's error): one of the codes' schemas. */
export const errorBodySchema = (): JsonSchema => ({
  oneOf: ERROR_CODES.map((code) => ref("schemas", errorSchemaName(code))),
});

/** Error schemas (written at once) and error responses (as operations ask for them). */
export const createErrorComponents = (
  schemas: ReturnType<typeof createSchemaConverter>,
  names: Map<z.ZodTypeAny, string>,
) => {
  const errorSchemas: Record<string, JsonSchema> = {};
  for (const code of ERROR_CODES) {
    const details = (ErrorDetailsSchemas as Record<string, z.ZodTypeAny>)[code];
    if (details && !names.has(details)) names.set(details, `${pascal(code)}Details`);
    errorSchemas[errorSchemaName(code)] = {
      type: "object",
      required: ["code", "message"],
      properties: {
        code: { type: "string", const: code },
        message: { type: "string", minLength: 1, description: "For people; branch on `code`." },
        ...(details ? { details: schemas.toSchema(details, "output") } : {}),
      },
      examples: [exampleErrors[code]],
    };
  }
  const errorResponses: Record<string, unknown> = {};
  const errorResponse = (status: number, codes: ErrorCode[], batch: boolean) => {
    const name = errorResponseName(codes);
    if (!(name in errorResponses)) {
      const first = codes[0] as ErrorCode;
      errorResponses[name] = {
        description: STATUS_TEXT[status] ?? codes.join(", "),
        headers: headersFor(status, batch),
        content: {
          "application/json": {
            schema: {
              type: "object",
              required: ["error"],
              properties: {
                error:
                  codes.length === 1
                    ? ref("schemas", errorSchemaName(first))
                    : { oneOf: codes.map((code) => ref("schemas", errorSchemaName(code))) },
              },
            },
            ...(codes.length === 1
              ? { example: { error: exampleErrors[first] } }
              : {
                  examples: Object.fromEntries(
                    codes.map((code) => [code, { summary: code, value: { error: exampleErrors[code] } }]),
                  ),
                }),
          },
        },
      };
    }
    return ref("responses", name);
  };
  return { schemas: errorSchemas, responses: errorResponses, response: errorResponse };
};
