import type { ApiCall } from "./internal/api-call.js";
import type { BackoffOptions } from "./internal/backoff.js";
import { Core } from "./internal/core.js";
import { GmiError } from "./internal/errors.js";
import type { RateLimit } from "./internal/headers.js";
import { type Logger, type LogLevel, levelLogger } from "./internal/log.js";
import { isBrowserLike } from "./internal/platform.js";
import type { ResponseOf } from "./internal/route-types.js";
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

/** How a {@link GmiClient} is set up: only `apiKey` and `baseUrl` are required. */
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
  /**
   * Which lines the client writes (default `warn`, or the `GMI_LOG` environment variable): `debug`
   * adds one line per attempt (method, path, status, duration, attempt, request id), `info` one per
   * retry. The key is never written.
   */
  logLevel?: LogLevel | undefined;
  /** Where log lines go (default `console`); anything with `error`, `warn`, `info` and `debug`. */
  logger?: Logger | undefined;
  /**
   * The client refuses to start in a browser page or browser worker: an API key there is readable by
   * anyone who opens the page. Set this only when the key is the user's own (they pasted it) or is
   * otherwise safe to expose.
   */
  dangerouslyAllowBrowser?: boolean | undefined;
  /** Called before each attempt (the key redacted). */
  onRequest?: ((info: RequestInfo) => void) | undefined;
  /** Called on each HTTP answer, success or error. */
  onResponse?: ((info: ResponseInfo) => void) | undefined;
  /** Called before each retry, with the delay and the failure. */
  onRetry?: ((info: RetryInfo) => void) | undefined;
}

const BROWSER_REFUSAL =
  "GmiClient: this looks like a browser, where an API key is readable by anyone who opens the page. " +
  "Call the API from your server instead; if the key is the user's own (they pasted it), pass " +
  "`dangerouslyAllowBrowser: true`.";

/** The Game Market Intelligence API client. */
export class GmiClient {
  /** Liquidity leaderboard, profiles, conditions, history, batch scoring. */
  readonly intelligence: Intelligence;
  /** Search demand: leaderboards, trending, unmet, condition mix. */
  readonly searches: Searches;
  /** The game catalog. */
  readonly games: Games;
  /** The valid `console_id` values. */
  readonly consoles: Consoles;
  /** Raw demand signals, by batch. */
  readonly signals: Signals;
  private readonly core: Core;

  /** A client for one key; throws a TypeError without `apiKey` or `baseUrl`, a GmiError in a browser without the opt-in. */
  constructor(options: GmiClientOptions) {
    if (!options?.apiKey) throw new TypeError("GmiClient: apiKey is required");
    if (!options.baseUrl) throw new TypeError("GmiClient: baseUrl is required");
    if (!options.dangerouslyAllowBrowser && isBrowserLike()) throw new GmiError({ message: BROWSER_REFUSAL });
    const transport = new Transport({
      ...options,
      logger: levelLogger(options.logger, options.logLevel),
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
  me(options?: RequestOptions): ApiCall<ResponseOf<"account.me">> {
    return this.core.me(options);
  }

  /**
   * The rate-limit window as this client last saw it (`undefined` before the first answer). Answers
   * of concurrent calls arrive in any order, so within one window it keeps the lowest `remaining`
   * seen and only a later window replaces it: a late answer never raises it. One call's own state is
   * `withResponse()`'s `response.rateLimit` (or `page.response.rateLimit`).
   */
  get rateLimit(): RateLimit | undefined {
    return this.core.transport.rateLimit;
  }
}
