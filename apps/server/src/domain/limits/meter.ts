import type { PlanLimits } from "@gmi/contract";
import type { Clock } from "../../clock.js";
import { ApiError } from "../../errors.js";
import type { LimiterStore } from "./store.js";
import type { UsageStore } from "./usage.js";
import type { RateWindow } from "./windows.js";
import { billingMonth, monthResetsAt, rateWindows, secondsUntil } from "./windows.js";

export type MeterDeps = { limiter: LimiterStore; usage: UsageStore; clock: Clock };

/**
 * The X-RateLimit-* values: about the per-minute window (spec, Limits rule 2), except on a 429 of
 * the day window, which reports the window that refused (docs/decisions.md).
 */
export type RateLimitState = { limit: number; remaining: number; reset: number };

export const rateLimitHeaders = (state: RateLimitState): Record<string, number> => ({
  "x-ratelimit-limit": state.limit,
  "x-ratelimit-remaining": state.remaining,
  "x-ratelimit-reset": state.reset,
});

const stateOf = (window: RateWindow, count: number, now: number): RateLimitState => ({
  limit: window.limit,
  remaining: Math.max(0, window.limit - count),
  reset: secondsUntil(window.resetsAt, now),
});

/** Why a charge of `cost` was refused, in words that agree with the headers sent with it. */
const refusalMessage = (window: RateWindow, cost: number, remaining: number): string =>
  cost > 1 && remaining > 0
    ? `Rate limit of ${window.limit} requests per ${window.name}: this request costs ${cost} units and ${remaining} are left`
    : `Rate limit of ${window.limit} requests per ${window.name} exceeded`;

/** The minute window's state, charging nothing: the headers of /me and of a 403. */
export const peekRateLimit = async (
  deps: Pick<MeterDeps, "limiter" | "clock">,
  organizationId: number,
  plan: PlanLimits,
): Promise<RateLimitState> => {
  const { now, minute } = windowsNow(deps, organizationId, plan);
  const [count = 0] = await deps.limiter.peek([minute], now);
  return stateOf(minute, count, now);
};

/** An organization's windows at the clock's instant, computed once per charge. */
type WindowsNow = { now: number; windows: RateWindow[]; minute: RateWindow };

const windowsNow = (deps: Pick<MeterDeps, "clock">, organizationId: number, plan: PlanLimits): WindowsNow => {
  const now = deps.clock.now();
  const windows = rateWindows(organizationId, plan, now);
  const [minute] = windows;
  if (!minute) throw new Error("no minute window");
  return { now, windows, minute };
};

const chargeWindows = async (
  deps: Pick<MeterDeps, "limiter">,
  { now, windows, minute }: WindowsNow,
  cost: number,
) => {
  const result = await deps.limiter.consume(windows, cost, now);
  const state = stateOf(minute, result.counts[0] ?? 0, now);
  if (!result.admitted) {
    // The headers of the window that refused: a day-window 429 says what is left of the day.
    const window = windows[result.blocked] ?? minute;
    const blocked = stateOf(window, result.counts[result.blocked] ?? 0, now);
    throw new ApiError(
      "rate_limit_exceeded",
      refusalMessage(window, cost, blocked.remaining),
      { window: window.name, limit: window.limit },
      { ...rateLimitHeaders(blocked), "retry-after": secondsUntil(window.resetsAt, now) },
    );
  }
  return { now, windows, minute, state };
};

/**
 * Charges `cost` units to the minute and day windows only (one atomic call); throws 429 with
 * Retry-After. What an answer that does no work costs (an idempotent replay, a 409, a 422 reuse):
 * the windows protect the service, the monthly quota bills work.
 */
export const meterRateWindows = async (
  deps: Pick<MeterDeps, "limiter" | "clock">,
  organizationId: number,
  plan: PlanLimits,
  cost: number,
): Promise<RateLimitState> => (await chargeWindows(deps, windowsNow(deps, organizationId, plan), cost)).state;

/**
 * The monthly half of a charge whose windows are paid: throws 402 (the windows refunded, so a
 * refused request costs nothing anywhere) when a hard cap would be passed, and refunds them too
 * when the usage store cannot decide (its error, a 503, is thrown on).
 */
const chargeMonth = async (
  deps: MeterDeps,
  organizationId: number,
  plan: PlanLimits,
  cost: number,
  charged: WindowsNow & { state: RateLimitState },
): Promise<RateLimitState> => {
  const { now, windows, minute, state } = charged;
  const quota = monthlyCap(plan);
  const month = await deps.usage
    .consume(organizationId, billingMonth(now), cost, quota)
    .catch(async (error) => {
      // Undecided (PostgreSQL unreachable or too slow: a 503): not served, so not charged either.
      await deps.limiter.refund(windows, cost);
      throw error;
    });
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

/** The quota a charge may not pass: none for overage plans (Pro), billed past it, and unmetered ones. */
const monthlyCap = (plan: PlanLimits): number | null => (plan.overage ? null : plan.monthly_quota);

/**
 * Charges `cost` units to an organization: the minute and day windows first (one atomic call),
 * then the monthly quota. Rate windows come first because bursts are the common rejection and
 * cost no database write; a monthly refusal (rare) refunds the windows, so a rejected request
 * costs nothing anywhere. Throws (rejects) 429 or 402 with Retry-After; gives the headers to send.
 *
 * Decided from memory when both stores hold the units (leases, buffered usage: `consumeHeld`), the
 * state is returned as a plain value: no promise and no turn of the microtask queue for the common
 * request of a busy organization. Otherwise a promise.
 */
export const meter = (
  deps: MeterDeps,
  organizationId: number,
  plan: PlanLimits,
  cost: number,
): RateLimitState | Promise<RateLimitState> => {
  const at = windowsNow(deps, organizationId, plan);
  const held = deps.limiter.consumeHeld?.(at.windows, cost) ?? null;
  if (held === null) {
    return chargeWindows(deps, at, cost).then((charged) =>
      chargeMonth(deps, organizationId, plan, cost, charged),
    );
  }
  const state = stateOf(at.minute, held.counts[0] ?? 0, at.now);
  if (deps.usage.consumeHeld?.(organizationId, billingMonth(at.now), cost, monthlyCap(plan))) return state;
  return chargeMonth(deps, organizationId, plan, cost, { ...at, state });
};
