import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import {
  AuthenticationError,
  ConnectionError,
  GmiClient,
  type GmiClientOptions,
  NotFoundError,
  PermissionError,
  QuotaExceededError,
  RateLimitError,
  type RetryInfo,
  ServerError,
  TimeoutError,
  ValidationError,
} from "../src/index.js";
import { backoffDelay } from "../src/internal/backoff.js";

const BASE = "https://api.test";
const page = {
  data: [],
  meta: { pagination: { mode: "page", page: 1, per_page: 25, total: 0, last_page: 1 } },
  links: { next: null, prev: null },
};
const batchOk = {
  data: [{ status: 200, data: { game_id: 1, found: false } }],
  meta: { period: "7d", period_date: "2026-11-20", batch: { total: 1, succeeded: 1, failed: 0 } },
};
const CODES: Record<number, string> = {
  400: "validation_failed",
  401: "unauthorized",
  402: "quota_exceeded",
  403: "insufficient_scope",
  404: "not_found",
  409: "idempotency_conflict",
  422: "validation_failed",
  429: "rate_limit_exceeded",
  500: "server_error",
  501: "not_implemented",
  503: "service_unavailable",
};
const error = (status: number, headers: Record<string, string> = {}, details?: object) =>
  Response.json(
    { error: { code: CODES[status], message: `status ${status}`, ...(details ? { details } : {}) } },
    { status, headers: { "x-request-id": `req-${status}`, ...headers } },
  );

type Step = Response | Error | (() => Response | Promise<Response>);

/** A fetch that plays a script, one step per request, and records when each request was made. */
const scripted = (...steps: Step[]) => {
  const calls: Array<{ at: number; url: string; headers: Record<string, string> }> = [];
  const fetch = vi.fn(async (url: string, init: RequestInit) => {
    calls.push({ at: Date.now(), url, headers: init.headers as Record<string, string> });
    const step = steps[Math.min(calls.length - 1, steps.length - 1)] as Step;
    if (step instanceof Error) throw step;
    return typeof step === "function" ? step() : step.clone();
  });
  return { fetch, calls };
};

const client = (fetch: GmiClientOptions["fetch"], options: Partial<GmiClientOptions> = {}) =>
  new GmiClient({ apiKey: "gmi_live_secret_9f3a", baseUrl: BASE, fetch, ...options });

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});

describe("what is retried", () => {
  it.each([
    [400, ValidationError],
    [401, AuthenticationError],
    [403, PermissionError],
    [404, NotFoundError],
    [422, ValidationError],
    [402, QuotaExceededError],
    [501, ServerError],
  ])("never %i", async (status, Class) => {
    const { fetch } = scripted(error(status, { "retry-after": "3600" }), Response.json(page));
    const failure = await client(fetch)
      .consoles.list()
      .then(
        () => undefined,
        (e: unknown) => e,
      );
    expect(failure).toBeInstanceOf(Class);
    expect(failure).toMatchObject({ status, attempts: 1, requestId: `req-${status}` });
    expect(fetch).toHaveBeenCalledTimes(1);
    if (status === 402) expect(failure).toMatchObject({ retryAfter: 3600, retryable: false });
  });

  it("5xx up to maxRetries (default 2), then a ServerError saying so", async () => {
    const { fetch } = scripted(error(503));
    const call = client(fetch)
      .games.get(1)
      .catch((e: unknown) => e);
    await vi.runAllTimersAsync();
    const failure = await call;
    expect(failure).toBeInstanceOf(ServerError);
    expect(failure).toMatchObject({ status: 503, code: "service_unavailable", attempts: 3, retryable: true });
    expect(fetch).toHaveBeenCalledTimes(3);
  });

  it("408 (the request was never processed), with backoff, counting the retry in its header", async () => {
    const { fetch, calls } = scripted(error(408), Response.json(page));
    const call = client(fetch)
      .consoles.list()
      .then((p) => p);
    await vi.runAllTimersAsync();
    expect((await call).data).toEqual([]);
    expect(calls.map((c) => c.headers["x-gmi-retry-count"])).toEqual([undefined, "1"]);
  });

  it("network errors, then a ConnectionError", async () => {
    const { fetch } = scripted(
      new TypeError("fetch failed"),
      new TypeError("fetch failed"),
      Response.json(page),
    );
    const call = client(fetch)
      .consoles.list()
      .then((p) => p); // list calls are lazy: `then` sends
    await vi.runAllTimersAsync();
    await expect(call).resolves.toMatchObject({ data: [] });
    const { fetch: down } = scripted(new TypeError("fetch failed"));
    const failed = client(down, { maxRetries: 1 })
      .consoles.list()
      .then(undefined, (e: unknown) => e);
    await vi.runAllTimersAsync();
    expect(await failed).toBeInstanceOf(ConnectionError);
    expect(await failed).toMatchObject({ attempts: 2, status: undefined, code: undefined });
  });
});

describe("when", () => {
  it("429: after Retry-After, not before", async () => {
    const { fetch, calls } = scripted(error(429, { "retry-after": "3" }), Response.json(page));
    const call = client(fetch)
      .consoles.list()
      .then((p) => p);
    const start = Date.now();
    await vi.advanceTimersByTimeAsync(2_999);
    expect(fetch).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(1);
    await call;
    expect(calls[1]?.at).toBe(start + 3_000);
  });

  it("409 idempotency_conflict: after details.retry_after, with the same key", async () => {
    const { fetch, calls } = scripted(
      error(409, {}, { idempotency_key: "k:0-0", retry_after: 2 }),
      Response.json(batchOk),
    );
    const call = client(fetch, { maxBatchSize: 10 }).intelligence.batch([1], { idempotencyKey: "k" });
    await vi.advanceTimersByTimeAsync(1_999);
    expect(fetch).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(1);
    await expect(call).resolves.toMatchObject({ meta: { batch: { succeeded: 1 } } });
    expect(calls.map((c) => c.headers["idempotency-key"])).toEqual(["k:0-0", "k:0-0"]);
  });

  it("one idempotency key across the retries of one request", async () => {
    const { fetch, calls } = scripted(error(500), new TypeError("reset"), Response.json(batchOk));
    const call = client(fetch, { maxBatchSize: 10 }).signals.batch([1]);
    await vi.runAllTimersAsync();
    const result = await call;
    const keys = calls.map((c) => c.headers["idempotency-key"]);
    expect(new Set(keys).size).toBe(1);
    expect(keys[0]).toBe(`${result.idempotencyKey}:0-0`);
  });

  it("5xx: exponential backoff with full jitter, capped", async () => {
    const delays: number[] = [];
    const { fetch } = scripted(error(500));
    const options = { maxRetries: 6, backoff: { baseDelayMs: 100, maxDelayMs: 1_000 } };
    const onRetry = (info: RetryInfo) => delays.push(info.delayMs);
    vi.spyOn(Math, "random").mockReturnValue(0.999_999);
    const call = client(fetch, { ...options, onRetry })
      .consoles.list()
      .catch(() => undefined);
    await vi.runAllTimersAsync();
    await call;
    expect(delays).toEqual([99, 199, 399, 799, 999, 999]);
    vi.spyOn(Math, "random").mockReturnValue(0);
    expect(backoffDelay(5, options.backoff)).toBe(0);
  });

  it("jitter stays within [0, min(cap, base * 2^(n-1)))", () => {
    vi.restoreAllMocks();
    for (let retry = 1; retry <= 10; retry++) {
      const ceiling = Math.min(8_000, 500 * 2 ** (retry - 1));
      for (let i = 0; i < 200; i++) {
        const delay = backoffDelay(retry);
        expect(delay).toBeGreaterThanOrEqual(0);
        expect(delay).toBeLessThan(ceiling);
      }
    }
  });
});

describe("waits the caller does not allow", () => {
  it("a Retry-After above maxRetryAfterMs throws a RateLimitError carrying it, without sleeping", async () => {
    const { fetch } = scripted(error(429, { "retry-after": "120" }, { window: "minute", limit: 30 }));
    const failure = await client(fetch)
      .consoles.list()
      .then(undefined, (e: unknown) => e);
    expect(failure).toBeInstanceOf(RateLimitError);
    expect(failure).toMatchObject({ retryAfter: 120, attempts: 1, details: { window: "minute", limit: 30 } });
    expect(fetch).toHaveBeenCalledTimes(1);
  });

  it("a Retry-After past the deadline throws at once", async () => {
    const { fetch } = scripted(error(429, { "retry-after": "10" }), Response.json(page));
    const failure = await client(fetch, { deadlineMs: 5_000 })
      .consoles.list()
      .then(undefined, (e: unknown) => e);
    expect(failure).toMatchObject({ name: "RateLimitError", retryAfter: 10 });
  });

  it("abort during a wait rejects at once with the signal's reason", async () => {
    const { fetch } = scripted(error(429, { "retry-after": "30" }), Response.json(page));
    const controller = new AbortController();
    const call = client(fetch)
      .consoles.list({}, { signal: controller.signal })
      .then(undefined, (e: unknown) => e);
    await vi.advanceTimersByTimeAsync(1_000);
    controller.abort(new Error("user left the page"));
    expect(await call).toMatchObject({ message: "user left the page" });
    await vi.advanceTimersByTimeAsync(60_000);
    expect(fetch).toHaveBeenCalledTimes(1);
  });
});

describe("time-outs", () => {
  /** Headers arrive at once; the body never ends. */
  const stalledBody = () =>
    new Response(new ReadableStream({ start: () => {} }), {
      status: 200,
      headers: { "content-type": "application/json" },
    });

  it("the per-attempt time-out covers the body read", async () => {
    const { fetch } = scripted(stalledBody);
    const call = client(fetch, { timeoutMs: 1_000, maxRetries: 1 })
      .consoles.list()
      .then(undefined, (e: unknown) => e);
    await vi.advanceTimersByTimeAsync(999);
    expect(fetch).toHaveBeenCalledTimes(1);
    await vi.runAllTimersAsync();
    const failure = await call;
    expect(failure).toBeInstanceOf(TimeoutError);
    expect(failure).toMatchObject({ attempts: 2, retryable: true });
  });

  it("the deadline bounds the whole call", async () => {
    const { fetch } = scripted(stalledBody);
    const start = Date.now();
    const call = client(fetch, { timeoutMs: 4_000, maxRetries: 5 })
      .consoles.list({}, { deadlineMs: 6_000 })
      .then(undefined, (e: unknown) => e);
    await vi.runAllTimersAsync();
    expect(await call).toBeInstanceOf(TimeoutError);
    expect(Date.now() - start).toBeLessThanOrEqual(6_000);
    expect(fetch.mock.calls.length).toBe(2);
  });
});

describe("the shared rate-limit gate", () => {
  it("after a 429, other calls of the client wait too instead of discovering it", async () => {
    let n = 0;
    const { fetch, calls } = scripted(() =>
      n++ === 0 ? error(429, { "retry-after": "2" }) : Response.json(page),
    );
    const gmi = client(fetch);
    const first = gmi.consoles.list().then((p) => p);
    await vi.advanceTimersByTimeAsync(10);
    const second = gmi.games.titles().then((p) => p);
    const third = gmi.games.slugs().then((p) => p);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(fetch).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(1_000);
    await Promise.all([first, second, third]);
    expect(calls).toHaveLength(4);
    const opened = (calls[0]?.at ?? 0) + 2_000;
    expect(calls.slice(1).every((c) => c.at >= opened)).toBe(true);
  });

  it("a queued call whose deadline is shorter than the wait gets a RateLimitError", async () => {
    const { fetch } = scripted(error(429, { "retry-after": "20" }), Response.json(page));
    const gmi = client(fetch);
    const first = gmi.consoles.list().then((p) => p);
    await vi.advanceTimersByTimeAsync(10);
    const hurried = await gmi.games.titles({}, { deadlineMs: 1_000 }).then(undefined, (e: unknown) => e);
    expect(hurried).toBeInstanceOf(RateLimitError);
    expect(hurried).toMatchObject({ retryAfter: 20, attempts: 0, requestId: "req-429" });
    await vi.runAllTimersAsync();
    await first;
  });
});

describe("hooks", () => {
  it("see every attempt, with the credential redacted", async () => {
    const seen: string[] = [];
    const { fetch } = scripted(error(500), Response.json(page, { headers: { "x-request-id": "r2" } }));
    const call = client(fetch, {
      onRequest: (info) => seen.push(`request ${info.attempt} ${info.headers.authorization}`),
      onResponse: (info) => seen.push(`response ${info.attempt} ${info.status} ${info.requestId}`),
      onRetry: (info) => seen.push(`retry ${info.attempt} ${info.error.code}`),
    })
      .consoles.list()
      .then((p) => p);
    await vi.runAllTimersAsync();
    await call;
    expect(seen).toEqual([
      "request 1 Bearer ***9f3a",
      "response 1 500 req-500",
      "retry 1 server_error",
      "request 2 Bearer ***9f3a",
      "response 2 200 r2",
    ]);
    expect(JSON.stringify(seen)).not.toContain("secret");
  });

  it("a throwing hook does not change the outcome", async () => {
    const { fetch } = scripted(Response.json(page));
    const gmi = client(fetch, {
      onRequest: () => {
        throw new Error("logger down");
      },
    });
    await expect(gmi.consoles.list()).resolves.toMatchObject({ data: [] });
  });
});
