import type { BackoffOptions } from "./internal/backoff.js";
import { Core } from "./internal/core.js";
import type { RateLimit } from "./internal/headers.js";
import {
  type FetchLike,
  type RequestInfo,
  type RequestOptions,
  type ResponseInfo,
  type ResponseValidator,
  type RetryInfo,
  Transport,
} from "./internal/transport.js";
import { Consoles } from "./resources/consoles.js";
import { Games } from "./resources/games.js";
import { Intelligence } from "./resources/intelligence.js";
import { Searches } from "./resources/searches.js";
import { Signals } from "./resources/signals.js";
import type { ResponseOf } from "./types.js";

export interface GmiClientOptions {
  /** The API key, sent as `Authorization: Bearer <key>`; hooks only ever see its last four characters. */
  apiKey: string;
  /** Where the API lives, e.g. `https://api.example.com` (paths start with `/api/v1`). */
  baseUrl: string;
  /** Retries after the first attempt of a retryable failure (default 2). */
  maxRetries?: number | undefined;
  /** Per attempt, reading the body included (default 30,000 ms). */
  timeoutMs?: number | undefined;
  /** Default overall deadline of one call, retries and waits included (default: none). */
  deadlineMs?: number | undefined;
  /**
   * The longest wait the client accepts from the server (`Retry-After`) before giving up with a
   * RateLimitError that carries `retryAfter` (default 60,000 ms).
   */
  maxRetryAfterMs?: number | undefined;
  /** Exponential backoff with full jitter for 5xx and network errors. */
  backoff?: BackoffOptions | undefined;
  /** Your own fetch (default: the global one, looked up at each call). */
  fetch?: FetchLike | undefined;
  /** Extra headers on every request. */
  headers?: Record<string, string> | undefined;
  /** Items per batch request; default the plan's `max_batch_size`, read from `/api/v1/me` once. */
  maxBatchSize?: number | undefined;
  /** Batch chunks in flight at once (default 4). */
  batchConcurrency?: number | undefined;
  /** Runtime response validation, e.g. `validateResponses()` from `@gmi/sdk/validate`. */
  validate?: ResponseValidator | undefined;
  onRequest?: ((info: RequestInfo) => void) | undefined;
  onResponse?: ((info: ResponseInfo) => void) | undefined;
  onRetry?: ((info: RetryInfo) => void) | undefined;
}

/** The Game Market Intelligence API client. */
export class GmiClient {
  readonly intelligence: Intelligence;
  readonly searches: Searches;
  readonly games: Games;
  readonly consoles: Consoles;
  readonly signals: Signals;
  private readonly core: Core;

  constructor(options: GmiClientOptions) {
    if (!options?.apiKey) throw new TypeError("GmiClient: apiKey is required");
    if (!options.baseUrl) throw new TypeError("GmiClient: baseUrl is required");
    const transport = new Transport({
      ...options,
      baseUrl: options.baseUrl.replace(/\/+$/, ""),
      maxRetries: options.maxRetries ?? 2,
      timeoutMs: options.timeoutMs ?? 30_000,
      maxRetryAfterMs: options.maxRetryAfterMs ?? 60_000,
    });
    this.core = new Core(transport, options.batchConcurrency ?? 4, options.maxBatchSize);
    this.intelligence = new Intelligence(this.core);
    this.searches = new Searches(this.core);
    this.games = new Games(this.core);
    this.consoles = new Consoles(this.core);
    this.signals = new Signals(this.core);
  }

  /** The calling key's organization, plan, scopes and usage (also refreshes the cached batch size). */
  me(options?: RequestOptions): Promise<ResponseOf<"account.me">> {
    return this.core.me(options);
  }

  /** The rate-limit window as of the latest answer (`undefined` before the first). */
  get rateLimit(): RateLimit | undefined {
    return this.core.transport.rateLimit;
  }
}
