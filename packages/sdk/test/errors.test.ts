import { describe, expect, it } from "vitest";
import {
  ApiError,
  AuthenticationError,
  ConflictError,
  ConnectionError,
  GmiClient,
  GmiError,
  NotFoundError,
  PermissionError,
  QuotaExceededError,
  RateLimitError,
  ServerError,
  TimeoutError,
  ValidationError,
} from "../src/index.js";
import { API_KEY, BASE_URL, makeClient, useGmiMocks } from "./helpers.js";

const gmi = useGmiMocks();
const failure = (promise: PromiseLike<unknown>) =>
  Promise.resolve(promise).then(
    () => {
      throw new Error("expected a failure");
    },
    (e: unknown) => e as GmiError,
  );

describe("errors map to classes, with the request id the server sent", () => {
  it("401 expired key", async () => {
    gmi.scenarios.expiredKey();
    const e = await failure(makeClient().games.titles());
    expect(e).toBeInstanceOf(AuthenticationError);
    expect(e).toBeInstanceOf(ApiError);
    expect(e).toBeInstanceOf(GmiError);
    expect(e).toMatchObject({ status: 401, code: "unauthorized", attempts: 1, retryable: false });
    expect(e.requestId).toMatch(/^[0-9a-f-]{36}$/);
    expect(e.headers?.get("x-request-id")).toBe(e.requestId);
    expect(e.message).toContain(e.requestId);
  });

  it("403 scope error names the missing scope", async () => {
    gmi.scenarios.missingScope("demand-intent.read");
    const e = await failure(makeClient().searches.unmet());
    expect(e).toBeInstanceOf(PermissionError);
    expect(e).toMatchObject({
      code: "insufficient_scope",
      details: { required_scope: "demand-intent.read" },
    });
    if (e.body?.code === "insufficient_scope")
      expect(e.body.details?.required_scope).toBe("demand-intent.read");
    await expect(makeClient().games.titles()).resolves.toBeDefined();
  });

  it("403 account_inactive", async () => {
    gmi.scenarios.accountInactive();
    const e = await failure(makeClient().me());
    expect(e).toBeInstanceOf(PermissionError);
    expect(e).toMatchObject({ code: "account_inactive", details: { subject: "organization" } });
  });

  it("404", async () => {
    const e = await failure(makeClient().intelligence.get(99_999));
    expect(e).toBeInstanceOf(NotFoundError);
    expect(e).toMatchObject({ status: 404, code: "not_found", details: { resource: "game", id: 99_999 } });
  });

  it("422 with the field at fault", async () => {
    const e = await failure(makeClient().games.titles({ limit: 0 }));
    expect(e).toBeInstanceOf(ValidationError);
    expect(e.details).toEqual({ issues: [expect.objectContaining({ location: "query", field: "limit" })] });
  });

  it("402 is not retried and carries Retry-After", async () => {
    gmi.scenarios.quotaExceeded({ resetsIn: 7200 });
    const e = await failure(makeClient().consoles.list());
    expect(e).toBeInstanceOf(QuotaExceededError);
    expect(e).toMatchObject({ status: 402, retryAfter: 7200, attempts: 1, retryable: false });
    expect(gmi.state.requests).toHaveLength(1);
  });

  it("429 after the retries, with retryAfter and the rate-limit state", async () => {
    gmi.scenarios.rateLimited({ retryAfter: 0, times: 5 });
    const e = await failure(makeClient().consoles.list());
    expect(e).toBeInstanceOf(RateLimitError);
    expect(e).toMatchObject({ status: 429, retryAfter: 0, attempts: 3, retryable: true });
    expect(e.details).toEqual({ window: "minute", limit: 600 });
    expect(e.rateLimit).toMatchObject({
      limit: 600,
      remaining: expect.any(Number),
      reset: expect.any(Number),
    });
  });

  it("409 conflict after the retries", async () => {
    gmi.scenarios.idempotencyConflict({ retryAfter: 0, times: 5 });
    const e = await failure(
      makeClient({ maxBatchSize: 5 }).intelligence.batch([101], { idempotencyKey: "dup" }),
    );
    expect(e).toBeInstanceOf(ConflictError);
    expect(e).toMatchObject({
      attempts: 3,
      idempotencyKey: "dup:0-0",
      details: { idempotency_key: "dup:0-0" },
    });
  });

  it("a 5xx burst shorter than the retries is invisible", async () => {
    gmi.scenarios.serverErrors({ times: 2 });
    await expect(makeClient().consoles.list()).resolves.toMatchObject({ data: expect.any(Array) });
    gmi.scenarios.serverErrors({ times: 3, status: 500 });
    const e = await failure(makeClient().consoles.list());
    expect(e).toBeInstanceOf(ServerError);
    expect(e).toMatchObject({ code: "server_error", details: { request_id: e.requestId } });
  });

  it("a network failure and a time-out", async () => {
    gmi.scenarios.networkError({ times: 3 });
    expect(await failure(makeClient().consoles.list())).toBeInstanceOf(ConnectionError);
    gmi.scenarios.slow(200, { times: 1 });
    const e = await failure(makeClient({ timeoutMs: 50, maxRetries: 0 }).consoles.list());
    expect(e).toBeInstanceOf(TimeoutError);
    expect(e).toBeInstanceOf(ConnectionError);
  });

  it("a proxy's HTML 502 still becomes a ServerError with a contract code", async () => {
    const client = new GmiClient({
      apiKey: API_KEY,
      baseUrl: BASE_URL,
      maxRetries: 0,
      fetch: async () => new Response("<html>Bad gateway</html>", { status: 502 }),
    });
    const e = await failure(client.me());
    expect(e).toBeInstanceOf(ServerError);
    expect(e).toMatchObject({ status: 502, code: "server_error", body: undefined });
  });
});

describe("rate-limit state", () => {
  it("is available after every call", async () => {
    const client = makeClient();
    expect(client.rateLimit).toBeUndefined();
    const page = await client.consoles.list();
    expect(client.rateLimit).toMatchObject({ limit: 600, remaining: 599 });
    expect(page.response.rateLimit).toEqual(client.rateLimit);
    await client.intelligence.batch([101, 102, 103], { chunkSize: 3 });
    expect(client.rateLimit?.remaining).toBe(596); // a batch is metered per item
  });
});
