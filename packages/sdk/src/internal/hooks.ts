import type { GmiError } from "./errors.js";
import type { RateLimit } from "./headers.js";
import type { RouteName } from "./route-types.js";
import type { Method } from "./routes.js";

/** What the `onRequest`, `onResponse` and `onRetry` hooks see (the credential redacted). */
export interface RequestInfo {
  route: RouteName;
  method: Method;
  url: string;
  /** Request headers, `authorization` reduced to its last four characters. */
  headers: Record<string, string>;
  /** 1 for the first try. */
  attempt: number;
  idempotencyKey: string | undefined;
}
export interface ResponseInfo extends RequestInfo {
  status: number;
  requestId: string | undefined;
  rateLimit: RateLimit | undefined;
  durationMs: number;
}
export interface RetryInfo extends RequestInfo {
  /** How long the client waits before the next attempt. */
  delayMs: number;
  error: GmiError;
}
