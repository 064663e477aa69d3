import type { PlanLimits } from "@gmi/contract";
import type { Clock } from "../clock.js";
import type { UsageWrite } from "../data/usage-writes.js";
import type { BatchCharge } from "../domain/limits/batch-cost.js";
import type { RateLimitState, RateWindow } from "../domain/limits/windows.js";
import { billingMonth, rateLimitHeaders, rateLimitState, rateWindows } from "../domain/limits/windows.js";
import type { UsageStore } from "./quota-store.js";
import { quotaRefusal, rateLimitRefusal } from "./refusals.js";
import type { LimiterStore } from "./window-store.js";

export type MeterDeps = { limiter: LimiterStore; usage: UsageStore; clock: Clock };

export type { RateLimitState } from "../domain/limits/windows.js";
export { rateLimitHeaders } from "../domain/limits/windows.js";

const stateOf = rateLimitState;

/** An organization's windows at the clock's instant, computed once per charge. */
type WindowsNow = { now: number; windows: RateWindow[]; minute: RateWindow; day: RateWindow };

const windowsNow = (deps: Pick<MeterDeps, "clock">, organizationId: number, plan: PlanLimits): WindowsNow => {
  const now = deps.clock.now();
  const windows = rateWindows(organizationId, plan, now);
  const [minute, day] = windows;
  if (!minute || !day) throw new Error("no minute or day window");
  return { now, windows, minute, day };
};

/** Every window's count at the clock's instant, charging nothing. */
export const peekWindows = async (
  deps: Pick<MeterDeps, "limiter" | "clock">,
  organizationId: number,
  plan: PlanLimits,
) => {
  const at = windowsNow(deps, organizationId, plan);
  const [minute = 0, day = 0] = await deps.limiter.peek(at.windows, at.now);
  return { ...at, counts: { minute, day } };
};

/** The minute window's state, charging nothing: the headers of /me and of a 403. */
export const peekRateLimit = async (
  deps: Pick<MeterDeps, "limiter" | "clock">,
  organizationId: number,
  plan: PlanLimits,
): Promise<RateLimitState> => {
  const { minute, counts, now } = await peekWindows(deps, organizationId, plan);
  return stateOf(minute, counts.minute, now);
};

type WindowsCharged = WindowsNow & { state: RateLimitState };

/**
 * Charges `cost` to the minute and day windows, all or nothing: from units this process holds (a
 * lease) as a plain value, else by the limiter (a promise). A refusal throws 429.
 */
const chargeWindows = (
  deps: Pick<MeterDeps, "limiter">,
  at: WindowsNow,
  cost: number,
): WindowsCharged | Promise<WindowsCharged> => {
  const held = deps.limiter.consumeHeld?.(at.windows, cost) ?? null;
  if (held) return { ...at, state: stateOf(at.minute, held.counts[0] ?? 0, at.now) };
  return deps.limiter.consume(at.windows, cost, at.now).then((result) => {
    const state = stateOf(at.minute, result.counts[0] ?? 0, at.now);
    if (result.admitted) return { ...at, state };
    const window = at.windows[result.blocked] ?? at.minute;
    const count = result.counts[result.blocked] ?? 0;
    throw rateLimitRefusal(window, count, cost, rateLimitHeaders(state), at.now);
  });
};

/**
 * Charges `cost` units to the minute and day windows only (one atomic call); throws 429 with
 * Retry-After. What an answer that does no work costs (an idempotent replay, a 409, a 422 reuse):
 * the windows protect the service, the monthly quota bills work.
 */
const meterRateWindows = async (
  deps: Pick<MeterDeps, "limiter" | "clock">,
  organizationId: number,
  plan: PlanLimits,
  cost: number,
): Promise<RateLimitState> => (await chargeWindows(deps, windowsNow(deps, organizationId, plan), cost)).state;

/** The quota a charge may not pass: none for overage plans (Pro), billed past it, and unmetered ones. */
const monthlyCap = (plan: PlanLimits): number | null => (plan.overage ? null : plan.monthly_quota);

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
  { now, windows, minute, state }: WindowsCharged,
): Promise<RateLimitState> => {
  const quota = monthlyCap(plan);
  const month = await deps.usage
    .consume(organizationId, billingMonth(now), cost, quota)
    .catch(async (error) => {
      // Undecided (PostgreSQL unreachable or too slow: a 503): not served, so not charged either.
      await deps.limiter.refund(windows, cost);
      throw error;
    });
  if (month.admitted || quota === null) return state;
  await deps.limiter.refund(windows, cost);
  const refunded = { ...state, remaining: Math.min(minute.limit, state.remaining + cost) };
  throw quotaRefusal(quota, month.used ?? quota, cost, rateLimitHeaders(refunded), now);
};

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
  const charged = chargeWindows(deps, windowsNow(deps, organizationId, plan), cost);
  if (charged instanceof Promise) {
    return charged.then((windows) => chargeMonth(deps, organizationId, plan, cost, windows));
  }
  const month = billingMonth(charged.now);
  if (deps.usage.consumeHeld?.(organizationId, month, cost, monthlyCap(plan))) return charged.state;
  return chargeMonth(deps, organizationId, plan, cost, charged);
};

/** Writes a keyed batch's paid mark, and with it `units` when nothing else made them durable. */
export type PaidMark = (units: UsageWrite | null) => Promise<void>;

/**
 * A batch's charge (domain/limits/batch-cost.ts): the rate windows only, or the windows and the
 * monthly quota. With a `mark` (a held key's work), the units must be durable together with the
 * paid mark (docs/idempotency.md, "Leases and crashes"): on a plan without a hard cap (Pro's
 * overage, Enterprise) they are written with the mark in one statement, instead of the buffer a
 * crash loses; a hard-capped plan's are durable before the work anyway (reserved in PostgreSQL),
 * and the mark gets none. Resolves once charged, with the headers to send and the mark's write,
 * which runs beside the work.
 */
export const meterBatch = async (
  deps: MeterDeps,
  organizationId: number,
  plan: PlanLimits,
  { units, quota }: BatchCharge,
  mark: PaidMark | null,
): Promise<{ state: RateLimitState; marked: Promise<void> | null }> => {
  if (!quota) return { state: await meterRateWindows(deps, organizationId, plan, units), marked: null };
  if (!mark) return { state: await meter(deps, organizationId, plan, units), marked: null };
  const charged = await chargeWindows(deps, windowsNow(deps, organizationId, plan), units);
  if (monthlyCap(plan) === null) {
    const marked = deps.usage.consumeWith(organizationId, billingMonth(charged.now), units, mark);
    return { state: charged.state, marked };
  }
  const state = await chargeMonth(deps, organizationId, plan, units, charged);
  return { state, marked: mark(null) };
};
