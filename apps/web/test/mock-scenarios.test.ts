// @vitest-environment node
import { GmiClient, GmiError } from "@gmi/sdk";
import { installGmiMocks } from "@gmi/sdk/msw";
import { setupServer } from "msw/node";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { hrefWith, MOCK_SCENARIOS, settingsOf } from "../src/mock/scenarios.js";

/**
 * Mock mode's scenarios (`?scenario=` in `pnpm dev:web --mock`) on the SDK's handlers in Node: each
 * answers what its label says, and the timed ones end by themselves. Clock faked: the test never
 * waits out a window.
 */
const BASE_URL = "https://api.gmi.test";
const gmi = installGmiMocks(setupServer, { baseUrl: BASE_URL });
let stop = () => {};
beforeAll(() => gmi.server.listen({ onUnhandledFrame: "error" }));
afterEach(() => {
  stop();
  vi.useRealTimers();
  gmi.reset();
});
afterAll(() => gmi.server.close());

/** The status the next read answers with, and its `Retry-After`. */
const next = async () => {
  // A client per read: one that met a 429 would hold its next reads until the Retry-After passed.
  const client = new GmiClient({ apiKey: "gmi_live_test", baseUrl: BASE_URL, maxRetries: 0 });
  try {
    const { response } = await client.consoles.list().withResponse();
    return { status: response.status, retryAfter: undefined };
  } catch (error) {
    if (!(error instanceof GmiError)) throw error;
    return { status: error.status ?? 0, retryAfter: error.retryAfter };
  }
};

describe("mock mode's scenarios", () => {
  it("rate-limited: every request answers 429 with the seconds left, until the window ends", async () => {
    vi.useFakeTimers({ toFake: ["setInterval", "clearInterval"] });
    stop = MOCK_SCENARIOS["rate-limited"].start(gmi, 3);
    expect(await next()).toEqual({ status: 429, retryAfter: 3 });
    expect(await next()).toEqual({ status: 429, retryAfter: 3 });
    vi.advanceTimersByTime(1_000);
    expect(await next()).toEqual({ status: 429, retryAfter: 2 });
    vi.advanceTimersByTime(2_000);
    expect(await next()).toEqual({ status: 200, retryAfter: undefined });
  });

  it("server-errors and network-error hold for their seconds, then answer", async () => {
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
    stop = MOCK_SCENARIOS["server-errors"].start(gmi, 5);
    for (let i = 0; i < 5; i++) expect((await next()).status).toBe(503);
    vi.advanceTimersByTime(5_000);
    expect((await next()).status).toBe(200);
    stop = MOCK_SCENARIOS["network-error"].start(gmi, 5);
    expect((await next()).status).toBe(0);
    vi.advanceTimersByTime(5_000);
    expect((await next()).status).toBe(200);
  });

  it("quota-exceeded, expired-key and account-inactive last until reset", async () => {
    const cases = [
      ["quota-exceeded", 402],
      ["expired-key", 401],
      ["account-inactive", 403],
    ] as const;
    for (const [name, status] of cases) {
      stop = MOCK_SCENARIOS[name].start(gmi, 10);
      expect((await next()).status).toBe(status);
      expect((await next()).status).toBe(status);
      gmi.reset();
    }
  });

  it("reads its settings from the address and writes them back, defaults left out", () => {
    expect(settingsOf("?scenario=rate-limited&seconds=5&plan=free")).toEqual({
      scenario: "rate-limited",
      plan: "free",
      seconds: 5,
    });
    // Unknown values fall back rather than break the page.
    expect(settingsOf("?scenario=nope&seconds=-1&plan=gold")).toEqual({
      scenario: "none",
      plan: "pro",
      seconds: 10,
    });
    expect(settingsOf("?scenario=toString")).toMatchObject({ scenario: "none" });
    const href = hrefWith("http://127.0.0.1:5173/app/?seconds=3#/game/101", {
      scenario: "server-errors",
      plan: "pro",
      seconds: 3,
    });
    expect(href).toBe("http://127.0.0.1:5173/app/?seconds=3&scenario=server-errors#/game/101");
    expect(hrefWith(href, { scenario: "none", plan: "pro", seconds: 10 })).toBe(
      "http://127.0.0.1:5173/app/#/game/101",
    );
  });
});
