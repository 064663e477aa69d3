import type { PlanLimits } from "@gmi/contract";
import type { Clock } from "../../clock.js";
import { ApiError } from "../../errors.js";
import type { LimiterStore } from "./store.js";
import type { UsageStore } from "./usage.js";
import { billingMonth, monthResetsAt, rateWindows, secondsUntil } from "./windows.js";

export type MeterDeps = { limiter: LimiterStore; usage: UsageStore; clock: Clock };

/** The X-RateLimit-* values: always about the per-minute window (spec, Limits rule 2). */
export type RateLimitState = { limit: number; remaining: number; reset: number };

export const rateLimitHeaders = (state: RateLimitState): Record<string, number> => ({
  "x-ratelimit-limit": state.limit,
  "x-ratelimit-remaining": state.remaining,
  "x-ratelimit-reset": state.reset,
});

/**
 * Charges `cost` units to an organization: the minute and day windows first (one atomic call),
 * then the monthly quota. Rate windows come first because bursts are the common rejection and
 * cost no database write; a monthly refusal (rare) refunds the windows, so a rejected request
 * costs nothing anywhere. Throws 429 or 402 with Retry-After; returns the headers to send.
 */
export const meter = async (
  deps: MeterDeps,
  organizationId: number,
  plan: PlanLimits,
  cost: number,
): Promise<RateLimitState> => {
  const now = deps.clock.now();
  const windows = rateWindows(organizationId, plan, now);
  const [minute] = windows;
  if (!minute) throw new Error("no minute window");
  const result = await deps.limiter.consume(windows, cost, now);
  const state: RateLimitState = {
    limit: minute.limit,
    remaining: Math.max(0, minute.limit - (result.counts[0] ?? 0)),
    reset: secondsUntil(minute.resetsAt, now),
  };
  if (!result.admitted) {
    const window = windows[result.blocked] ?? minute;
    throw new ApiError(
      "rate_limit_exceeded",
      `Rate limit of ${window.limit} requests per ${window.name} exceeded`,
      { window: window.name, limit: window.limit },
      { ...rateLimitHeaders(state), "retry-after": secondsUntil(window.resetsAt, now) },
    );
  }
  // Overage plans (Pro) are billed past the quota, so they are never refused here.
  const quota = plan.overage ? null : plan.monthly_quota;
  const month = await deps.usage.consume(organizationId, billingMonth(now), cost, quota);
  if (!month.admitted && quota !== null) {
    await deps.limiter.refund(windows, cost);
    const resetsIn = secondsUntil(monthResetsAt(now), now);
    const refunded = { ...state, remaining: Math.min(minute.limit, state.remaining + cost) };
    throw new ApiError(
      "quota_exceeded",
      `Monthly quota of ${quota} requests used up; it resets at the start of the next UTC month`,
      { quota, used: month.used ?? quota, resets_in: resetsIn },
      { ...rateLimitHeaders(refunded), "retry-after": resetsIn },
    );
  }
  return state;
};
