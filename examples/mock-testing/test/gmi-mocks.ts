import { type GmiMockOptions, installGmiMocks } from "@gmi/sdk/msw";
import { setupServer } from "msw/node";
import { afterAll, afterEach, beforeAll } from "vitest";

/**
 * The SDK's mocks for one test file: msw's `setupServer` with the handlers of every route, started
 * before the file's tests, reset after each one (scenarios, recorded requests, idempotency records),
 * closed at the end. A request no handler answers fails the test instead of reaching the network.
 */
export const useGmiMocks = (options: GmiMockOptions = {}) => {
  const gmi = installGmiMocks(setupServer, { baseUrl: "https://api.gmi.test", ...options });
  beforeAll(() => gmi.server.listen({ onUnhandledFrame: "error" }));
  afterEach(() => gmi.reset());
  afterAll(() => gmi.server.close());
  return gmi;
};
