import { describe, expect, it } from "vitest";
import { createClient, loadTopSellers } from "../src/top-sellers.js";
import { useGmiMocks } from "./gmi-mocks.js";

const gmi = useGmiMocks();
const client = (options: { maxRetries?: number } = {}) => createClient(gmi.baseUrl, options);

describe("the top sellers widget", () => {
  it("lists the most liquid games, best first", async () => {
    const view = await loadTopSellers(client(), { limit: 5 });
    if (view.state !== "ready") throw new Error(`expected rows, got ${view.state}`);
    expect(view.rows.map((r) => r.rank)).toEqual([1, 2, 3, 4, 5]);
    const scores = view.rows.map((r) => r.score);
    expect(scores).toEqual([...scores].sort((a, b) => b - a));
    // The request the widget sent, as the mocks recorded it.
    expect(gmi.state.requests.at(-1)?.url).toContain("sort=liquidity");
  });

  it("429: shows the countdown the server's Retry-After gives", async () => {
    // Longer than the client will wait (maxRetryAfterMs: 2 s), so it reports instead of sleeping.
    gmi.scenarios.rateLimited({ retryAfter: 30 });
    expect(await loadTopSellers(client())).toEqual({ state: "rate-limited", retryInSeconds: 30 });
  });

  it("429 shorter than the client's patience: waited out and retried once", async () => {
    gmi.scenarios.rateLimited({ retryAfter: 1, times: 1 });
    expect((await loadTopSellers(client())).state).toBe("ready");
    expect(gmi.state.requests).toHaveLength(2);
  });

  it("402: the monthly quota is spent, with the seconds until it resets", async () => {
    gmi.scenarios.quotaExceeded({ resetsIn: 86_400 });
    expect(await loadTopSellers(client())).toEqual({ state: "quota-exceeded", resetsInSeconds: 86_400 });
    // Never retried: a spent quota does not come back in a second.
    expect(gmi.state.requests).toHaveLength(1);
  });

  it("a burst of two 503s is ridden out by the client's retries", async () => {
    gmi.scenarios.serverErrors({ times: 2 });
    expect((await loadTopSellers(client())).state).toBe("ready");
    expect(gmi.state.requests).toHaveLength(3);
  });

  it("a longer 5xx burst is shown as unavailable, with the request id to quote", async () => {
    gmi.scenarios.serverErrors({ times: 5, status: 500 });
    const view = await loadTopSellers(client({ maxRetries: 2 }));
    expect(view).toMatchObject({ state: "unavailable", requestId: expect.stringMatching(/^[0-9a-f-]{36}$/) });
  });

  it("401: an expired key signs the user out", async () => {
    gmi.scenarios.expiredKey();
    expect(await loadTopSellers(client())).toEqual({ state: "signed-out" });
  });
});
