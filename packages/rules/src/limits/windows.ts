import type { PlanLimits } from "@gmi/contract";

const MINUTE_MS = 60_000;
const DAY_MS = 86_400_000;

export type WindowName = "minute" | "day";

/** One fixed window: its counter key, its limit and when it ends (clock milliseconds). */
export type RateWindow = { name: WindowName; key: string; limit: number; resetsAt: number };

/**
 * Fixed windows aligned to the UTC minute and the UTC day. Fixed windows let one atomic
 * check-and-increment decide a request (no per-request timestamps to store); the price is that a
 * client may spend up to twice a limit across a window boundary, which the day cap bounds.
 */
export const rateWindows = (
  organizationId: number,
  plan: Pick<PlanLimits, "rate_limit_per_minute" | "rate_limit_per_day">,
  now: number,
): RateWindow[] => {
  const minute = Math.floor(now / MINUTE_MS);
  const day = Math.floor(now / DAY_MS);
  return [
    {
      name: "minute",
      key: `${organizationId}:m:${minute}`,
      limit: plan.rate_limit_per_minute,
      resetsAt: (minute + 1) * MINUTE_MS,
    },
    {
      name: "day",
      key: `${organizationId}:d:${day}`,
      limit: plan.rate_limit_per_day,
      resetsAt: (day + 1) * DAY_MS,
    },
  ];
};

/** Whole seconds from `now` until `at`, at least 1 so a client never retries immediately. */
export const secondsUntil = (at: number, now: number): number => Math.max(1, Math.ceil((at - now) / 1000));

/** The last month asked for and the instants it spans: every request asks, nearly always the same. */
let known = { from: 0, to: 0, month: "" };

/** The billing month of an instant: its UTC calendar month, "YYYY-MM". */
export const billingMonth = (now: number): string => {
  if (now < known.from || now >= known.to) {
    const d = new Date(now);
    const from = Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1);
    known = { from, to: monthResetsAt(now), month: d.toISOString().slice(0, 7) };
  }
  return known.month;
};

/** When the billing month of `now` began: 00:00 UTC on its first day. */
export const monthStartsAt = (now: number): number => {
  const d = new Date(now);
  return Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1);
};

/** When the billing month of `now` ends: 00:00 UTC on the first day of the next month. */
export const monthResetsAt = (now: number): number => {
  const d = new Date(now);
  return Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1);
};

/**
 * The X-RateLimit-* values: always the per-minute window's (spec, Limits rule 2), on every answer
 * that carries them, a 429 of the day window and a 402 included. The window that refused a request
 * is in its `details` and `Retry-After`.
 */
export type RateLimitState = { limit: number; remaining: number; reset: number };

/** A window's state after `count` units in it, at `now`. */
export const rateLimitState = (window: RateWindow, count: number, now: number): RateLimitState => ({
  limit: window.limit,
  remaining: Math.max(0, window.limit - count),
  reset: secondsUntil(window.resetsAt, now),
});

export const rateLimitHeaders = (state: RateLimitState): Record<string, number> => ({
  "x-ratelimit-limit": state.limit,
  "x-ratelimit-remaining": state.remaining,
  "x-ratelimit-reset": state.reset,
});
