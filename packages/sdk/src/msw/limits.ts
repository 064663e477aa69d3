import type { PlanLimits } from "@gmi/contract";
import { errorReply, type Reply } from "./reply.js";

// The server's limits, as it applies them (apps/server/src/metering/meter.ts, refusals.ts,
// domain/limits/windows.ts), for one organization: fixed windows aligned to the UTC minute and day,
// the monthly quota a hard-capped plan may not pass, and a refusal that charges nothing anywhere.

const MINUTE_MS = 60_000;
const DAY_MS = 86_400_000;

/** Whole seconds from `now` until `at`, at least 1 (a client never retries at once). */
export const secondsUntil = (at: number, now: number): number => Math.max(1, Math.ceil((at - now) / 1000));
/** When the billing month of `now` ends: 00:00 UTC on the first day of the next month. */
export const monthResetsAt = (now: number): number => {
  const d = new Date(now);
  return Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1);
};

export type RateHeaders = Record<"x-ratelimit-limit" | "x-ratelimit-remaining" | "x-ratelimit-reset", string>;

type Window = { name: "minute" | "day"; limit: number; resetsAt: number; count: number };

/** The counters of one organization's windows and month. */
export class RateMeter {
  private counts = { minute: new Map<number, number>(), day: new Map<number, number>() };
  /** Units of the monthly quota used (the mock's month is its whole life, or until reset). */
  monthUsed = 0;

  reset(): void {
    this.counts = { minute: new Map(), day: new Map() };
    this.monthUsed = 0;
  }

  private windows(plan: PlanLimits, now: number): [Window, Window] {
    const minute = Math.floor(now / MINUTE_MS);
    const day = Math.floor(now / DAY_MS);
    return [
      {
        name: "minute",
        limit: plan.rate_limit_per_minute,
        resetsAt: (minute + 1) * MINUTE_MS,
        count: this.counts.minute.get(minute) ?? 0,
      },
      {
        name: "day",
        limit: plan.rate_limit_per_day,
        resetsAt: (day + 1) * DAY_MS,
        count: this.counts.day.get(day) ?? 0,
      },
    ];
  }

  private add(now: number, units: number) {
    const minute = Math.floor(now / MINUTE_MS);
    const day = Math.floor(now / DAY_MS);
    this.counts.minute.set(minute, (this.counts.minute.get(minute) ?? 0) + units);
    this.counts.day.set(day, (this.counts.day.get(day) ?? 0) + units);
  }

  /** X-RateLimit-* of the minute window as it stands (spec, Limits rule 2), charging nothing. */
  peek(plan: PlanLimits, now: number, extra = 0): RateHeaders {
    const [minute] = this.windows(plan, now);
    return {
      "x-ratelimit-limit": String(minute.limit),
      "x-ratelimit-remaining": String(Math.max(0, minute.limit - minute.count + extra)),
      "x-ratelimit-reset": String(secondsUntil(minute.resetsAt, now)),
    };
  }

  /**
   * Charges `cost` units: the minute and day windows (all or nothing), then, with `quota`, the
   * month (a hard cap refuses and gives the windows back). The headers to send, or the refusal.
   */
  charge(
    plan: PlanLimits,
    now: number,
    cost: number,
    quota: boolean,
  ): { headers: RateHeaders; refusal?: Reply } {
    const windows = this.windows(plan, now);
    const blocked = windows.find((w) => w.count + cost > w.limit);
    if (blocked) {
      const headers = this.peek(plan, now);
      const left = blocked.limit - blocked.count;
      const limit = `Rate limit of ${blocked.limit} requests per ${blocked.name}`;
      const why =
        cost > 1 && left > 0 ? `: this request costs ${cost} units and ${left} are left` : " exceeded";
      const refusal = errorReply(
        "rate_limit_exceeded",
        `${limit}${why}`,
        { window: blocked.name, limit: blocked.limit },
        { ...headers, "retry-after": String(secondsUntil(blocked.resetsAt, now)) },
      );
      return { headers, refusal };
    }
    this.add(now, cost);
    // A plan with overage (Pro) is billed past its quota, an unmetered one has none.
    const cap = !quota || plan.overage ? null : plan.monthly_quota;
    if (cap !== null && this.monthUsed + cost > cap) {
      this.add(now, -cost);
      const headers = this.peek(plan, now);
      const resetsIn = secondsUntil(monthResetsAt(now), now);
      const left = cap - this.monthUsed;
      const resets = "it resets at the start of the next UTC month";
      const message =
        cost > 1 && left > 0
          ? `Monthly quota of ${cap} requests: this request costs ${cost} units and ${left} are left; ${resets}`
          : `Monthly quota of ${cap} requests used up; ${resets}`;
      const refusal = errorReply(
        "quota_exceeded",
        message,
        { quota: cap, used: this.monthUsed, resets_in: resetsIn },
        { ...headers, "retry-after": String(resetsIn) },
      );
      return { headers, refusal };
    }
    if (quota) this.monthUsed += cost;
    return { headers: this.peek(plan, now) };
  }
}
