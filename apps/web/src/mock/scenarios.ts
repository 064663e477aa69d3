import { PLANS, type PlanSlug } from "@gmi/contract";
import type { GmiMocks } from "@gmi/sdk/msw";

/**
 * The failures mock mode can show, picked by `?scenario=` (or the panel), each made with the SDK's
 * own scenario switches so the dashboard meets exactly what its tests and a frontend team's meet.
 * The SDK's switches count requests ("the next 3 answers are 503"); a page fires a varying number of
 * reads (React's StrictMode doubles them in development), so the ones that stand for a span of time
 * (a spent minute window, an outage) last `seconds` here instead and then end by themselves.
 */
export interface MockScenario {
  label: string;
  /** Starts the scenario; returns a function that stops its timers. */
  start(gmi: GmiMocks, seconds: number): () => void;
}

/** "Every request from now on", for the SDK's count-based switches. */
const ALWAYS = 1_000_000;

/**
 * The minute window spent for `seconds`: every request answers 429 with `Retry-After` the seconds
 * left (renewed each second, as the server's window counts down), then every request answers again.
 */
const rateLimitedFor = (gmi: GmiMocks, seconds: number) => {
  let left = Math.max(1, Math.round(seconds));
  const renew = () => {
    gmi.reset();
    if (left > 0) gmi.scenarios.rateLimited({ retryAfter: left, times: ALWAYS });
  };
  renew();
  const timer = setInterval(() => {
    left -= 1;
    renew();
    if (left <= 0) clearInterval(timer);
  }, 1_000);
  return () => clearInterval(timer);
};

/** A switch held for `seconds`, then released. */
const holdFor = (gmi: GmiMocks, seconds: number, apply: () => void) => {
  apply();
  const timer = setTimeout(() => gmi.reset(), seconds * 1_000);
  return () => clearTimeout(timer);
};

const none = () => () => {};

const scenarios = {
  none: { label: "None: every call answers", start: none },
  "rate-limited": {
    label: "429: the minute's limit is spent (Retry-After countdown)",
    start: rateLimitedFor,
  },
  "quota-exceeded": {
    label: "402: the monthly quota is used up",
    start: (gmi) => {
      gmi.scenarios.quotaExceeded({ resetsIn: 3 * 86_400 });
      return () => {};
    },
  },
  "server-errors": {
    label: "503 burst: the service fails for a while, then recovers",
    start: (gmi, seconds) => holdFor(gmi, seconds, () => gmi.scenarios.serverErrors({ times: ALWAYS })),
  },
  "network-error": {
    label: "Offline: no answer at all for a while",
    start: (gmi, seconds) => holdFor(gmi, seconds, () => gmi.scenarios.networkError({ times: ALWAYS })),
  },
  slow: {
    label: "Slow: every answer takes 2 s (loading states)",
    start: (gmi) => {
      gmi.scenarios.slow(2_000, { times: ALWAYS });
      return () => {};
    },
  },
  "expired-key": {
    label: "401: the key expired or was revoked",
    start: (gmi) => {
      gmi.scenarios.expiredKey();
      return () => {};
    },
  },
  "account-inactive": {
    label: "403: the organization is suspended",
    start: (gmi) => {
      gmi.scenarios.accountInactive();
      return () => {};
    },
  },
} satisfies Record<string, MockScenario>;

export type MockScenarioName = keyof typeof scenarios;
export const MOCK_SCENARIOS: Record<MockScenarioName, MockScenario> = scenarios;

export interface MockSettings {
  scenario: MockScenarioName;
  plan: PlanSlug;
  /** How long the timed scenarios last (the 429's window, the outage). */
  seconds: number;
}

const DEFAULTS: MockSettings = { scenario: "none", plan: "pro", seconds: 10 };

const isScenario = (value: string | null): value is MockScenarioName =>
  value !== null && Object.hasOwn(MOCK_SCENARIOS, value);
const isPlan = (value: string | null): value is PlanSlug => value !== null && Object.hasOwn(PLANS, value);

/** The settings in a mock-mode address (`?scenario=rate-limited&seconds=5&plan=free`); unknown values fall back. */
export const settingsOf = (search: string): MockSettings => {
  const params = new URLSearchParams(search);
  const seconds = Number(params.get("seconds"));
  return {
    scenario: isScenario(params.get("scenario"))
      ? (params.get("scenario") as MockScenarioName)
      : DEFAULTS.scenario,
    plan: isPlan(params.get("plan")) ? (params.get("plan") as PlanSlug) : DEFAULTS.plan,
    seconds: Number.isInteger(seconds) && seconds >= 1 && seconds <= 3_600 ? seconds : DEFAULTS.seconds,
  };
};

/** The address of the same page with other settings (defaults left out, the hash route kept). */
export const hrefWith = (href: string, settings: MockSettings): string => {
  const url = new URL(href);
  for (const key of ["scenario", "plan", "seconds"] as const) {
    const value = String(settings[key]);
    if (value === String(DEFAULTS[key])) url.searchParams.delete(key);
    else url.searchParams.set(key, value);
  }
  return url.toString();
};
