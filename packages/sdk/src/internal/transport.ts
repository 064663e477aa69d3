import { AttemptTimeout, attempt as tryOnce } from "./attempt.js";
import { type BackoffOptions, backoffDelay } from "./backoff.js";
import {
  apiError,
  ConnectionError,
  type GmiError,
  RateLimitError,
  TimeoutError,
  UnexpectedResponseError,
} from "./errors.js";
import { RateLimitGate } from "./gate.js";
import { mergeRateLimit, type RateLimit, readRateLimit, readRetryAfter, redact } from "./headers.js";
import type { RequestInfo, ResponseInfo, RetryInfo } from "./hooks.js";
import { type LevelLogger, logAttempt } from "./log.js";
import { identification } from "./platform.js";
import type { RouteName } from "./route-types.js";
import { buildUrl, fillPath, ROUTES } from "./routes.js";
import { sleep, throwIfAborted } from "./sleep.js";

export type { RequestInfo, ResponseInfo, RetryInfo } from "./hooks.js";

/** Any fetch: the platform's, undici's, a test double. Resolved at call time, so msw's patch applies. */
export type FetchLike = (url: string, init: RequestInit) => Promise<Response>;

/** Turns a parsed body into the body the caller gets, or throws (see `@gmi/sdk/validate`). */
export type ResponseValidator = (route: RouteName, status: number, body: unknown) => unknown;

export interface TransportOptions {
  apiKey: string;
  baseUrl: string;
  fetch?: FetchLike | undefined;
  maxRetries: number;
  timeoutMs: number;
  deadlineMs?: number | undefined;
  maxRetryAfterMs: number;
  backoff?: BackoffOptions | undefined;
  headers?: Record<string, string> | undefined;
  validate?: ResponseValidator | undefined;
  onRequest?: ((info: RequestInfo) => void) | undefined;
  onResponse?: ((info: ResponseInfo) => void) | undefined;
  onRetry?: ((info: RetryInfo) => void) | undefined;
  logger: LevelLogger;
}

/** Options every call accepts. */
export interface RequestOptions {
  /** Cancels the call at once, during an attempt or a wait; it rejects with the signal's reason. */
  signal?: AbortSignal | undefined;
  /** Per attempt, body read included. */
  timeoutMs?: number | undefined;
  /** For the whole call, retries and waits included. */
  deadlineMs?: number | undefined;
  /** Retries after the first attempt (default: the client's). */
  maxRetries?: number | undefined;
  /** Extra headers of this call (the key cannot be replaced here). */
  headers?: Record<string, string> | undefined;
}

export interface RequestSpec {
  route: RouteName;
  params?: Record<string, string | number> | undefined;
  query?: object | undefined;
  body?: unknown;
  idempotencyKey?: string | undefined;
}

export interface Answer<T> {
  body: T;
  status: number;
  headers: Headers;
  /** When the answer arrived (epoch ms), for `rateLimitOf`. */
  at: number;
  attempts: number;
  idempotencyKey: string | undefined;
}

/**
 * A call's own request id and window are read on demand (`response.requestId`, `.rateLimit`); only
 * the client-wide window is merged from every answer (about 1 us each, next to a request's 100s).
 */
export const requestIdOf = (answer: { headers: Headers }): string | undefined =>
  answer.headers.get("x-request-id") ?? undefined;
export const rateLimitOf = (answer: { headers: Headers; at: number }): RateLimit | undefined =>
  readRateLimit(answer.headers, answer.at);

const INVALID_JSON = Symbol("invalid json");
const parse = (text: string): unknown => {
  if (text === "") return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return INVALID_JSON;
  }
};

/** A short, jittered wait for a 409 whose body does not say how long (spec: "wait a few seconds"). */
const CONFLICT_WAIT_MS = 1_000;

const safely = <T>(hook: ((info: T) => void) | undefined, info: T) => {
  try {
    hook?.(info);
  } catch {
    // A logging hook must never change the outcome of the request it observes.
  }
};

/** The retry count a retried attempt carries, so the server's log tells retries from new calls. */
const RETRY_COUNT = "x-gmi-retry-count";

export class Transport {
  readonly gate = new RateLimitGate();
  /** The window state across this client's answers (`mergeRateLimit`). */
  rateLimit: RateLimit | undefined;

  /** Shared by every request without headers of its own; never mutated. */
  private readonly baseHeaders: Readonly<Record<string, string>>;

  constructor(readonly options: TransportOptions) {
    this.baseHeaders = {
      accept: "application/json",
      ...identification(),
      ...options.headers,
      authorization: `Bearer ${options.apiKey}`,
    };
  }

  /** Absolute deadline of a call started now. */
  deadline(options: RequestOptions | undefined): number {
    const ms = options?.deadlineMs ?? this.options.deadlineMs;
    return ms === undefined ? Number.POSITIVE_INFINITY : Date.now() + ms;
  }

  /** The longest wait a call may still make: `maxRetryAfterMs`, and never past its deadline. */
  allowedWait(deadlineAt: number): number {
    return Math.min(this.options.maxRetryAfterMs, deadlineAt - Date.now());
  }

  async send<T>(spec: RequestSpec, options: RequestOptions = {}, deadlineAt = this.deadline(options)) {
    const [method, template] = ROUTES[spec.route];
    const url = buildUrl(this.options.baseUrl, fillPath(template, spec.params), spec.query);
    const idempotencyKey = spec.idempotencyKey;
    let headers = this.baseHeaders;
    let body: string | undefined;
    if (options.headers || spec.body !== undefined || idempotencyKey !== undefined) {
      const own: Record<string, string> = { ...headers, ...options.headers };
      own.authorization = this.baseHeaders.authorization as string;
      if (spec.body !== undefined) {
        own["content-type"] = "application/json";
        body = JSON.stringify(spec.body);
      }
      if (idempotencyKey !== undefined) own["idempotency-key"] = idempotencyKey;
      headers = own;
    }
    const maxRetries = options.maxRetries ?? this.options.maxRetries;
    const { signal } = options;
    const { onRequest, onResponse, onRetry, logger } = this.options;
    const path = url.slice(this.options.baseUrl.length);
    // Hooks are optional: the redacted copy is only made for them.
    const info =
      onRequest || onResponse || onRetry
        ? { route: spec.route, method, url, headers: redact(headers), idempotencyKey }
        : undefined;

    for (let attempt = 1; ; attempt++) {
      throwIfAborted(signal);
      if (this.gate.remaining() > 0) await this.gate.pass(this.allowedWait(deadlineAt), signal, attempt - 1);
      const left = deadlineAt - Date.now();
      const common = { attempts: attempt, idempotencyKey };
      if (left <= 0) throw new TimeoutError({ message: "Deadline exceeded before the request", ...common });
      const timeoutMs = Math.min(options.timeoutMs ?? this.options.timeoutMs, left);
      if (info) safely(onRequest, { ...info, attempt });
      const started = Date.now();
      const sent = attempt === 1 ? headers : { ...headers, [RETRY_COUNT]: String(attempt - 1) };
      let error: GmiError;
      try {
        const fetchImpl = this.options.fetch ?? globalThis.fetch;
        const { response, text } = await tryOnce(
          fetchImpl,
          url,
          { method, headers: sent, body },
          timeoutMs,
          signal,
        );
        const at = Date.now();
        const status = response.status;
        this.rateLimit = mergeRateLimit(this.rateLimit, rateLimitOf({ headers: response.headers, at }));
        if (logger.debugging) {
          const line = {
            method,
            path,
            status,
            durationMs: at - started,
            attempt,
            requestId: requestIdOf(response),
          };
          logAttempt(logger, line);
        }
        if (info) {
          const observed = {
            requestId: requestIdOf(response),
            rateLimit: rateLimitOf({ headers: response.headers, at }),
          };
          safely(onResponse, { ...info, attempt, status, ...observed, durationMs: at - started });
        }
        const payload = parse(text);
        if (response.ok && payload !== INVALID_JSON && payload !== undefined) {
          const answer: Answer<T> = {
            body: payload as T,
            status,
            headers: response.headers,
            at,
            attempts: attempt,
            idempotencyKey,
          };
          if (this.options.validate)
            answer.body = this.validate<T>(spec.route, payload, answer, idempotencyKey);
          return answer;
        }
        const meta = {
          requestId: requestIdOf(response),
          headers: response.headers,
          rateLimit: rateLimitOf({ headers: response.headers, at }),
          ...common,
        };
        if (response.ok) {
          throw new UnexpectedResponseError({ message: `${status}: the body is not JSON`, status, ...meta });
        }
        const retryAfter = readRetryAfter(response.headers, at);
        error = apiError(status, payload === INVALID_JSON ? undefined : payload, { ...meta, retryAfter });
      } catch (cause) {
        if (signal?.aborted) throw signal.reason;
        if (cause instanceof UnexpectedResponseError) throw cause;
        error =
          cause instanceof AttemptTimeout
            ? new TimeoutError({ message: `Request timed out after ${timeoutMs} ms`, ...common })
            : new ConnectionError({ message: `Connection failed: ${String(cause)}`, cause, ...common });
        if (logger.debugging) {
          const line = {
            method,
            path,
            status: undefined,
            durationMs: Date.now() - started,
            attempt,
            requestId: undefined,
          };
          logAttempt(logger, line, error.message);
        }
      }

      const delay = this.retryDelay(error, attempt);
      if (error instanceof RateLimitError) this.gate.close(Date.now() + (delay ?? 0), error);
      if (delay === undefined || attempt > maxRetries || delay > this.allowedWait(deadlineAt)) throw error;
      const after = error.status === undefined ? error.name : `${error.status} ${error.code}`;
      logger.info(
        `gmi: retrying ${method} ${path} in ${delay} ms (attempt ${attempt + 1} of ${maxRetries + 1}) after ${after}`,
      );
      if (info) safely(onRetry, { ...info, attempt, delayMs: delay, error });
      await sleep(delay, signal);
    }
  }

  /** Milliseconds before the next attempt, or undefined when this failure is not retried. */
  private retryDelay(error: GmiError, attempt: number): number | undefined {
    if (!error.retryable) return undefined;
    if (error.retryAfter !== undefined) return error.retryAfter * 1000;
    if (error.code === "idempotency_conflict") {
      const seconds = error.details?.retry_after;
      return typeof seconds === "number" ? seconds * 1000 : CONFLICT_WAIT_MS + backoffDelay(1);
    }
    return backoffDelay(attempt, this.options.backoff);
  }

  private validate<T>(
    route: RouteName,
    payload: unknown,
    answer: { status: number; headers: Headers; at: number; attempts: number },
    idempotencyKey: string | undefined,
  ): T {
    try {
      return this.options.validate?.(route, answer.status, payload) as T;
    } catch (cause) {
      throw new UnexpectedResponseError({
        message: `${answer.status}: the body does not match the contract (${route}): ${String(cause)}`,
        status: answer.status,
        cause,
        requestId: requestIdOf(answer),
        headers: answer.headers,
        rateLimit: rateLimitOf(answer),
        attempts: answer.attempts,
        idempotencyKey,
      });
    }
  }
}
