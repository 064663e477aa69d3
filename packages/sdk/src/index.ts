/**
 * The TypeScript client of the Game Market Intelligence API: `new GmiClient({ apiKey, baseUrl })`,
 * then one method per endpoint under `client.intelligence`, `searches`, `games`, `consoles`,
 * `signals` and `client.me()`.
 *
 * @module @gmi/sdk
 */
export { GmiClient, type GmiClientOptions } from "./client.js";
export type { ApiCall, ApiResponse, WithResponse } from "./internal/api-call.js";
export type { BackoffOptions } from "./internal/backoff.js";
export type { BatchCall, BatchOptions, BatchWithResponse } from "./internal/batch.js";
export {
  ApiError,
  AuthenticationError,
  ConflictError,
  ConnectionError,
  GmiError,
  type GmiErrorInit,
  NotFoundError,
  PermissionError,
  QuotaExceededError,
  RateLimitError,
  ServerError,
  TimeoutError,
  UnexpectedResponseError,
  ValidationError,
} from "./internal/errors.js";
export type { RateLimit } from "./internal/headers.js";
export { ListCall, type ToArrayOptions } from "./internal/list-call.js";
export type { Logger, LogLevel } from "./internal/log.js";
export { type ListOptions, Page } from "./internal/pagination.js";
export { SDK_VERSION } from "./internal/platform.js";
export type {
  FetchLike,
  RequestInfo,
  RequestOptions,
  ResponseInfo,
  ResponseValidator,
  RetryInfo,
} from "./internal/transport.js";
export type { Consoles } from "./resources/consoles.js";
export type { Games } from "./resources/games.js";
export type { Intelligence } from "./resources/intelligence.js";
export type { Searches } from "./resources/searches.js";
export type { Signals } from "./resources/signals.js";
export type * from "./types.js";
