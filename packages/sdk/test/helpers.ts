import { setupServer } from "msw/node";
import { afterAll, afterEach, beforeAll } from "vitest";
import { GmiClient, type GmiClientOptions } from "../src/index.js";
import { type GmiMockOptions, installGmiMocks } from "../src/msw/index.js";

export const BASE_URL = "https://api.gmi.test";
export const API_KEY = "gmi_test_key_9f3a";

/** The mocked API for one test file, reset after each test. */
export const useGmiMocks = (options: GmiMockOptions = {}) => {
  const gmi = installGmiMocks(setupServer, { baseUrl: BASE_URL, ...options });
  beforeAll(() => gmi.server.listen({ onUnhandledFrame: "error" }));
  afterEach(() => gmi.reset());
  afterAll(() => gmi.server.close());
  return gmi;
};

/** A client with millisecond backoff, so retry tests do not sleep for real. */
export const makeClient = (options: Partial<GmiClientOptions> = {}) =>
  new GmiClient({
    apiKey: API_KEY,
    baseUrl: BASE_URL,
    backoff: { baseDelayMs: 1, maxDelayMs: 4 },
    ...options,
  });
