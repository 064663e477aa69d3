import type { PlanLimits } from "@gmi/contract";
import { billingMonth, monthResetsAt, secondsUntil } from "../domain/limits/windows.js";
import type { MeterDeps } from "./meter.js";
import { peekWindows } from "./meter.js";

/**
 * GET /me's usage, charging nothing: the billing month from the usage store, and the day window
 * from the rate windows, counted as a day-window 429 decides (the dashboard's "used today").
 */
export const accountUsage = (deps: MeterDeps) => async (organizationId: number, plan: PlanLimits) => {
  const now = deps.clock.now();
  const [used, windows] = await Promise.all([
    deps.usage.used(organizationId, billingMonth(now)),
    peekWindows(deps, organizationId, plan),
  ]);
  const { day, counts } = windows;
  return {
    month: { used, quota: plan.monthly_quota, resets_in: secondsUntil(monthResetsAt(now), now) },
    day: { used: counts.day, limit: day.limit, resets_in: secondsUntil(day.resetsAt, windows.now) },
  };
};
