export { GmiClient, type GmiClientOptions } from "./client.js";
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
} from "./errors.js";
export type { BackoffOptions } from "./internal/backoff.js";
export type { BatchOptions } from "./internal/batch.js";
export type { RateLimit } from "./internal/headers.js";
export type {
  FetchLike,
  RequestInfo,
  RequestOptions,
  ResponseInfo,
  ResponseValidator,
  RetryInfo,
} from "./internal/transport.js";
export { ListCall, type ToArrayOptions } from "./list-call.js";
export { type ListOptions, Page } from "./pagination.js";
export type { Consoles } from "./resources/consoles.js";
export type { Games } from "./resources/games.js";
export type { Intelligence } from "./resources/intelligence.js";
export type { Searches } from "./resources/searches.js";
export type { Signals } from "./resources/signals.js";
export type * from "./types.js";
