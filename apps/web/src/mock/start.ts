import { createGmiMocks, type GmiMocks } from "@gmi/sdk/msw";
import { http, passthrough } from "msw";
import { setupWorker } from "msw/browser";
import type { Credentials } from "../session.js";
import { MOCK_SCENARIOS, type MockSettings, settingsOf } from "./scenarios.js";

export interface MockApi {
  gmi: GmiMocks;
  settings: MockSettings;
  /** Signed in from the start: the mocks take any key. */
  credentials: Credentials;
}

/**
 * Mock mode's API: the SDK's msw handlers in a service worker on this page's origin, so the
 * dashboard's own client, unchanged, calls `/api/v1/...` and msw answers in the browser. Only
 * loaded when Vite runs in `mock` mode (src/main.tsx): a production build holds none of it.
 */
export const startMockApi = async (): Promise<MockApi> => {
  const settings = settingsOf(location.search);
  const origin = location.origin;
  const gmi = createGmiMocks({ baseUrl: origin, plan: settings.plan });
  const worker = setupWorker(
    // The page and its modules share the API's origin here: they go to the dev server. Without this
    // the SDK's answer for unknown paths under its base URL (the server's 404) would take a reload.
    http.all(new RegExp(`^${origin.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}/(?!api/)`), () => passthrough()),
    ...gmi.handlers,
  );
  await worker.start({
    serviceWorker: { url: `${import.meta.env.BASE_URL}mockServiceWorker.js` },
    onUnhandledFrame: "bypass",
    quiet: true,
  });
  MOCK_SCENARIOS[settings.scenario].start(gmi, settings.seconds);
  // Handy in the console: `gmiMocks.scenarios.rateLimited({ retryAfter: 5 })`.
  Object.assign(globalThis, { gmiMocks: gmi });
  return { gmi, settings, credentials: { apiKey: "gmi_live_mock", baseUrl: origin } };
};
