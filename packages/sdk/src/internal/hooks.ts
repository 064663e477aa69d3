import type { GmiError } from "./errors.js";
import type { RateLimit } from "./headers.js";
import type { RouteName } from "./route-types.js";
import type { Method } from "./routes.js";

/** What the `onRequest`, `onResponse` and `onRetry` hooks see (the credential redacted). */
export interface RequestInfo {
  /** The route's dotted name (`games.byId`). */
  route: RouteName;
  /** `GET` or `POST`. */
  method: Method;
  /** The full URL, query included. */
  url: string;
  /** Request headers, `authorization` reduced to its last four characters. */
  headers: Record<string, string>;
  /** 1 for the first try. */
  attempt: number;
  /** The `Idempotency-Key` sent (batch requests). */
  idempotencyKey: string | undefined;
}
/** What `onResponse` sees: the attempt, and what its answer said. */
export interface ResponseInfo extends RequestInfo {
  /** The HTTP status. */
  status: number;
  /** `X-Request-Id` of the answer. */
  requestId: string | undefined;
  /** The rate-limit window this answer reported. */
  rateLimit: RateLimit | undefined;
  /** From sending to the whole body read. */
  durationMs: number;
}
/** What `onRetry` sees: the attempt that failed, the failure and the wait before the next. */
export interface RetryInfo extends RequestInfo {
  /** How long the client waits before the next attempt. */
  delayMs: number;
  /** Why the attempt failed. */
  error: GmiError;
}
