import type { ErrorCode, TypedErrorBody } from "./contract-types.js";
import type { RateLimit } from "./headers.js";

/** What an error is made of: the fields of {@link GmiError}, for tests and mocks that build one. */
export interface GmiErrorInit {
  /** The message, e.g. `404 not_found: No game 7 (request <id>)`. */
  message: string;
  /** The HTTP status; absent without an answer. */
  status?: number | undefined;
  /** The error code of the body; absent without an answer. */
  code?: ErrorCode | undefined;
  /** The body's `details`, when it has some. */
  details?: Record<string, unknown> | undefined;
  /** The error body as sent. */
  body?: TypedErrorBody | undefined;
  /** `X-Request-Id` of the answer. */
  requestId?: string | undefined;
  /** The answer's headers. */
  headers?: Headers | undefined;
  /** The answer's rate-limit window. */
  rateLimit?: RateLimit | undefined;
  /** Seconds the server asked to wait. */
  retryAfter?: number | undefined;
  /** Requests made before giving up (default 1). */
  attempts?: number | undefined;
  /** The `Idempotency-Key` sent, if any. */
  idempotencyKey?: string | undefined;
  /** What caused it (the network error, the ZodError, ...). */
  cause?: unknown;
}

/**
 * Base of every error the client throws. `status` and `code` are absent only where no HTTP answer
 * exists (connection failures, time-outs, client-side guards); `code` is the contract's closed union,
 * so a `switch` on it can be exhaustive.
 */
export class GmiError extends Error {
  /** The class's name (`NotFoundError`, ...), as `error.name` is for built-in errors. */
  override readonly name: string = "GmiError";
  /** The HTTP status of the answer; undefined when there was none. */
  readonly status: number | undefined;
  /** The API's error code (`not_found`, `rate_limit_exceeded`, ...); undefined without an answer. */
  readonly code: ErrorCode | undefined;
  /** The body's `details`: its shape depends on `code` (see `body` for a typed view). */
  readonly details: Record<string, unknown> | undefined;
  /** The error body as sent, narrowed by code: `switch (e.body?.code)` gives typed `details`. */
  readonly body: TypedErrorBody | undefined;
  /** `X-Request-Id` of the failed response: quote it to support. */
  readonly requestId: string | undefined;
  /** Every header of the failed answer. */
  readonly headers: Headers | undefined;
  /** The rate-limit headers of the failed response. */
  readonly rateLimit: RateLimit | undefined;
  /** Seconds the server asked us to wait (`Retry-After`), when it did. */
  readonly retryAfter: number | undefined;
  /** Requests made for this call before giving up (1 = no retry). */
  readonly attempts: number;
  /** The `Idempotency-Key` sent with the failed request, if any. */
  readonly idempotencyKey: string | undefined;

  /** Builds an error from its parts (the client does; tests and mocks may). */
  constructor(init: GmiErrorInit) {
    super(init.message, init.cause === undefined ? undefined : { cause: init.cause });
    this.status = init.status;
    this.code = init.code;
    this.details = init.details;
    this.body = init.body;
    this.requestId = init.requestId;
    this.headers = init.headers;
    this.rateLimit = init.rateLimit;
    this.retryAfter = init.retryAfter;
    this.attempts = init.attempts ?? 1;
    this.idempotencyKey = init.idempotencyKey;
  }

  /** Whether the client treats this failure as transient (429, 409 in flight, 5xx, network, time-out). */
  get retryable(): boolean {
    return isRetryable(this.status, this.code);
  }
}

/** An HTTP error answer from the API: always has a status and a code. */
export class ApiError extends GmiError {
  /** @inheritDoc */
  override readonly name: string = "ApiError";
  /** The HTTP status of the answer. */
  declare readonly status: number;
  /** The API's error code: the body's, or the one its status stands for when the body is not the API's. */
  declare readonly code: ErrorCode;
}
/** 401 `unauthorized`: key missing, invalid, revoked or expired. */
export class AuthenticationError extends ApiError {
  /** @inheritDoc */
  override readonly name = "AuthenticationError";
}
/** 403 `insufficient_scope` (`details.required_scope`) or `account_inactive`. */
export class PermissionError extends ApiError {
  /** @inheritDoc */
  override readonly name = "PermissionError";
}
/** 404 `not_found`. */
export class NotFoundError extends ApiError {
  /** @inheritDoc */
  override readonly name = "NotFoundError";
}
/** 400/413/415/422: the request was refused as written (`validation_failed`, `batch_too_large`, ...). */
export class ValidationError extends ApiError {
  /** @inheritDoc */
  override readonly name = "ValidationError";
}
/** 402 `quota_exceeded`: never retried; `retryAfter` is the seconds until the quota resets. */
export class QuotaExceededError extends ApiError {
  /** @inheritDoc */
  override readonly name = "QuotaExceededError";
}
/** 409 `idempotency_conflict`: the same key is still in flight. */
export class ConflictError extends ApiError {
  /** @inheritDoc */
  override readonly name = "ConflictError";
}
/**
 * 429 `rate_limit_exceeded`, after the retries; also thrown without sending when the wait the server
 * asked for is longer than the caller allows (`maxRetryAfterMs`, the deadline).
 */
export class RateLimitError extends ApiError {
  /** @inheritDoc */
  override readonly name = "RateLimitError";
}
/** 5xx. */
export class ServerError extends ApiError {
  /** @inheritDoc */
  override readonly name = "ServerError";
}
/** No HTTP answer: DNS, refused connection, reset, CORS, ... */
export class ConnectionError extends GmiError {
  /** @inheritDoc */
  override readonly name: string = "ConnectionError";
}
/** An attempt outlived `timeoutMs` (body read included), or the call outlived `deadlineMs`. */
export class TimeoutError extends ConnectionError {
  /** @inheritDoc */
  override readonly name = "TimeoutError";
}
/** An answer the client cannot use: not JSON, a looping cursor, a batch of the wrong length, a schema mismatch. */
export class UnexpectedResponseError extends GmiError {
  /** @inheritDoc */
  override readonly name = "UnexpectedResponseError";
}

/** Status of each code family, for answers whose body is not the API's envelope (a proxy's 502 page). */
const FALLBACK_CODE: Record<number, ErrorCode> = {
  400: "validation_failed",
  401: "unauthorized",
  402: "quota_exceeded",
  403: "insufficient_scope",
  404: "not_found",
  405: "method_not_allowed",
  // The closed union has no time-out code: a 408 (a proxy or the server gave up waiting for the
  // request) is a transient refusal to serve, like a 503, and is retried like one.
  408: "service_unavailable",
  409: "idempotency_conflict",
  413: "payload_too_large",
  415: "unsupported_media_type",
  422: "validation_failed",
  429: "rate_limit_exceeded",
  501: "not_implemented",
  503: "service_unavailable",
};

export const fallbackCode = (status: number): ErrorCode =>
  FALLBACK_CODE[status] ?? (status >= 500 ? "server_error" : "validation_failed");

/**
 * Spec, Errors rule 2: 429 after Retry-After, 409 after a short wait, 5xx with backoff; never other
 * 4xx but 408 (Request Timeout: the request was never processed, so sending it again is safe).
 */
export const isRetryable = (status: number | undefined, code: ErrorCode | undefined): boolean => {
  if (status === undefined) return code === undefined; // transport failure
  if (status === 429 || status === 408) return true;
  if (status === 409) return code === "idempotency_conflict";
  return status >= 500 && status !== 501;
};

type ApiErrorClass = new (init: GmiErrorInit) => ApiError;

const classFor = (status: number): ApiErrorClass => {
  if (status === 401) return AuthenticationError;
  if (status === 402) return QuotaExceededError;
  if (status === 403) return PermissionError;
  if (status === 404) return NotFoundError;
  if (status === 409) return ConflictError;
  if (status === 429) return RateLimitError;
  if (status === 400 || status === 413 || status === 415 || status === 422) return ValidationError;
  if (status >= 500) return ServerError;
  return ApiError;
};

/** Builds the error of an HTTP error answer from its status and (possibly absent) envelope. */
export const apiError = (status: number, payload: unknown, init: Omit<GmiErrorInit, "message">): ApiError => {
  const raw = (payload as { error?: unknown } | undefined)?.error;
  const body =
    raw && typeof raw === "object" && typeof (raw as { code?: unknown }).code === "string"
      ? (raw as TypedErrorBody)
      : undefined;
  const code = body?.code ?? fallbackCode(status);
  const text = body?.message ?? `HTTP ${status}`;
  const request = init.requestId ? ` (request ${init.requestId})` : "";
  const Class = classFor(status);
  return new Class({
    ...init,
    message: `${status} ${code}: ${text}${request}`,
    status,
    code,
    body,
    details: body?.details as Record<string, unknown> | undefined,
  });
};
