import { PLANS } from "@gmi/contract";
import { describe, expect, it } from "vitest";
import { manualClock } from "../clock.js";
import type { ApiError } from "../errors.js";
import { meter } from "./meter.js";
import { memoryUsageStore } from "./quota-store.js";
import { memoryLimiterStore } from "./window-store.js";

const start = Date.UTC(2026, 1, 28, 23, 59, 30);
const tiny = { ...PLANS.free, rate_limit_per_minute: 3, rate_limit_per_day: 5, monthly_quota: 4 };

const rejection = async (promise: unknown) => {
  try {
    await promise;
  } catch (error) {
    return error as ApiError;
  }
  throw new Error("expected a rejection");
};

describe("meter", () => {
  it("admits within every window, all or nothing, and reports the minute window", async () => {
    const clock = manualClock(start);
    const deps = { limiter: memoryLimiterStore(), usage: memoryUsageStore(), clock };
    expect(await meter(deps, 1, tiny, 2)).toEqual({ limit: 3, remaining: 1, reset: 30 });
    const refused = await rejection(meter(deps, 1, tiny, 2));
    expect(refused.toBody().error).toMatchObject({
      code: "rate_limit_exceeded",
      details: { window: "minute", limit: 3 },
    });
    expect(refused.headers["retry-after"]).toBe(30);
    // The refused request cost nothing: one unit is still there.
    expect(await meter(deps, 1, tiny, 1)).toMatchObject({ remaining: 0 });
    clock.advance(60_000);
    // A new day and a new month: fresh windows, fresh quota.
    expect(await meter(deps, 1, tiny, 3)).toMatchObject({ remaining: 0 });
  });

  it("refuses past the day window, with the minute window's headers", async () => {
    const clock = manualClock(Date.UTC(2026, 1, 10, 12));
    const deps = { limiter: memoryLimiterStore(), usage: memoryUsageStore(), clock };
    const plan = { ...tiny, monthly_quota: 100 };
    await meter(deps, 1, plan, 3);
    clock.advance(60_000);
    await meter(deps, 1, plan, 2);
    clock.advance(60_000);
    const refused = await rejection(meter(deps, 1, plan, 1));
    expect(refused.toBody().error.details).toEqual({ window: "day", limit: 5 });
    // Limits rule 2: the headers are the minute window's (3 a minute, none used in this one).
    expect(refused.headers).toEqual({
      "x-ratelimit-limit": 3,
      "x-ratelimit-remaining": 3,
      "x-ratelimit-reset": 60,
      "retry-after": 12 * 3600 - 120,
    });
  });

  it("402 past the monthly quota refunds the windows; overage plans pass", async () => {
    const clock = manualClock(Date.UTC(2026, 1, 10, 12));
    const deps = { limiter: memoryLimiterStore(), usage: memoryUsageStore(), clock };
    const plan = { ...tiny, rate_limit_per_day: 100 };
    await meter(deps, 1, plan, 3);
    clock.advance(60_000);
    const refused = await rejection(meter(deps, 1, plan, 2));
    expect(refused.toBody().error).toMatchObject({ code: "quota_exceeded", details: { quota: 4, used: 3 } });
    expect(await meter(deps, 1, plan, 1)).toMatchObject({ remaining: 2 });
    expect(await meter(deps, 2, { ...plan, overage: true }, 3)).toBeDefined();
    clock.advance(60_000);
    expect(await meter(deps, 2, { ...plan, overage: true }, 3)).toBeDefined();
  });

  it("a quota the usage store cannot decide (its error, a 503) refunds the windows", async () => {
    const clock = manualClock(Date.UTC(2026, 1, 10, 12));
    const usage = memoryUsageStore();
    const unreachable = Object.assign(new Error("connect ECONNREFUSED"), { code: "ECONNREFUSED" });
    const down = { ...usage, consume: () => Promise.reject(unreachable) };
    const limiter = memoryLimiterStore();
    expect(await rejection(meter({ limiter, usage: down, clock }, 1, tiny, 2))).toBe(unreachable);
    expect(await meter({ limiter, usage, clock }, 1, tiny, 3)).toMatchObject({ remaining: 0 });
  });

  it("counts per organization", async () => {
    const deps = { limiter: memoryLimiterStore(), usage: memoryUsageStore(), clock: manualClock(start) };
    await meter(deps, 1, tiny, 3);
    expect(await meter(deps, 2, tiny, 3)).toMatchObject({ remaining: 0 });
  });
});
