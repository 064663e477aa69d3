import type { PlanLimits } from "@gmi/contract";
import type { ApiError } from "@gmi/rules/errors";
import { quotaRefusal, rateLimitRefusal } from "@gmi/rules/limits/refusals";
import { type RateWindow, rateLimitHeaders, rateLimitState, rateWindows } from "@gmi/rules/limits/windows";

// The server's limits for one organization, from the rules the server applies them by
// (packages/rules/src/limits): fixed windows aligned to the UTC minute and day, the monthly quota a
// hard-capped plan may not pass, and a refusal that charges nothing anywhere. The mock's own part
// is only the counters.

export { monthResetsAt, secondsUntil } from "@gmi/rules/limits/windows";

/** The mock keeps one organization per set of handlers: its windows' keys need no id. */
const ORGANIZATION = 0;

/** A refusal as a resolver's reply is shaped (reply.ts, not imported: state.ts imports this file). */
export type Refusal = { status: number; body: unknown; headers: Record<string, string> };

export type RateHeaders = Record<"x-ratelimit-limit" | "x-ratelimit-remaining" | "x-ratelimit-reset", string>;

const asStrings = <K extends string>(values: Record<K, string | number>) =>
  Object.fromEntries(Object.entries(values).map(([name, value]) => [name, String(value)])) as Record<
    K,
    string
  >;

const asRefusal = (error: ApiError): Refusal => ({
  status: error.status,
  body: error.toBody(),
  headers: asStrings(error.headers),
});

/** The counters of one organization's windows and month. */
export class RateMeter {
  private counts = new Map<string, number>();
  /** Units of the monthly quota used (the mock's month is its whole life, or until reset). */
  monthUsed = 0;

  reset(): void {
    this.counts = new Map();
    this.monthUsed = 0;
  }

  private countOf(window: RateWindow): number {
    return this.counts.get(window.key) ?? 0;
  }

  private add(windows: RateWindow[], units: number) {
    for (const w of windows) this.counts.set(w.key, this.countOf(w) + units);
  }

  /** Units counted in the UTC day of `now` (the day window: `/me`'s `usage.day.used`). */
  dayUsed(now: number): number {
    // The windows' keys do not depend on the plan's limits.
    const [, day] = rateWindows(ORGANIZATION, { rate_limit_per_minute: 0, rate_limit_per_day: 0 }, now);
    return day ? this.countOf(day) : 0;
  }

  /** X-RateLimit-* of the minute window as it stands (spec, Limits rule 2), charging nothing. */
  peek(plan: PlanLimits, now: number, extra = 0): RateHeaders {
    return this.minuteHeaders(rateWindows(ORGANIZATION, plan, now), now, extra);
  }

  /** The minute window's X-RateLimit-* values (spec, Limits rule 2), `extra` units given back. */
  private minuteState(windows: RateWindow[], now: number, extra = 0): Record<string, number> {
    const minute = windows[0] as RateWindow;
    return rateLimitHeaders(rateLimitState(minute, this.countOf(minute) - extra, now));
  }

  private minuteHeaders(windows: RateWindow[], now: number, extra = 0): RateHeaders {
    return asStrings(this.minuteState(windows, now, extra)) as RateHeaders;
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
  ): { headers: RateHeaders; refusal?: Refusal } {
    const windows = rateWindows(ORGANIZATION, plan, now);
    const blocked = windows.find((w) => this.countOf(w) + cost > w.limit);
    if (blocked) {
      const refusal = rateLimitRefusal(
        blocked,
        this.countOf(blocked),
        cost,
        this.minuteState(windows, now),
        now,
      );
      return { headers: this.minuteHeaders(windows, now), refusal: asRefusal(refusal) };
    }
    this.add(windows, cost);
    // A plan with overage (Pro) is billed past its quota, an unmetered one has none.
    const cap = !quota || plan.overage ? null : plan.monthly_quota;
    if (cap !== null && this.monthUsed + cost > cap) {
      this.add(windows, -cost);
      const refusal = quotaRefusal(cap, this.monthUsed, cost, this.minuteState(windows, now), now);
      return { headers: this.minuteHeaders(windows, now), refusal: asRefusal(refusal) };
    }
    if (quota) this.monthUsed += cost;
    return { headers: this.minuteHeaders(windows, now) };
  }
}
