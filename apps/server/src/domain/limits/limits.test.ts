import { PLANS } from "@gmi/contract";
import { describe, expect, it } from "vitest";
import { manualClock } from "../../clock.js";
import type { ApiError } from "../../errors.js";
import { batchShape } from "../batch/requests.js";
import { batchCost } from "./batch-cost.js";
import { meter } from "./meter.js";
import { memoryLimiterStore } from "./store.js";
import { memoryUsageStore } from "./usage.js";
import { billingMonth, monthResetsAt, rateWindows } from "./windows.js";

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

describe("windows", () => {
  it("are aligned to the UTC minute, day and calendar month", () => {
    const [minute, day] = rateWindows(7, tiny, start);
    expect(minute?.resetsAt).toBe(Date.UTC(2026, 1, 28, 23, 60));
    expect(day?.resetsAt).toBe(Date.UTC(2026, 2, 1));
    expect(billingMonth(start)).toBe("2026-02");
    // Remembered between calls, and forgotten when the instant leaves the month, either way.
    expect(billingMonth(start + 30_000)).toBe("2026-03");
    expect(billingMonth(start)).toBe("2026-02");
    expect(billingMonth(Date.UTC(2025, 11, 31, 23, 59, 59, 999))).toBe("2025-12");
    expect(monthResetsAt(start)).toBe(Date.UTC(2026, 2, 1));
  });
});

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

  it("refuses past the day window", async () => {
    const clock = manualClock(Date.UTC(2026, 1, 10, 12));
    const deps = { limiter: memoryLimiterStore(), usage: memoryUsageStore(), clock };
    const plan = { ...tiny, monthly_quota: 100 };
    await meter(deps, 1, plan, 3);
    clock.advance(60_000);
    await meter(deps, 1, plan, 2);
    clock.advance(60_000);
    const refused = await rejection(meter(deps, 1, plan, 1));
    expect(refused.toBody().error.details).toEqual({ window: "day", limit: 5 });
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

describe("batchCost", () => {
  it("is one unit per element for a batch the handler will serve, else one", () => {
    const cost = (body: unknown) => batchCost(batchShape(body, 10));
    expect(cost({ requests: [1, 2, 3] })).toBe(3);
    expect(cost({ requests: new Array(10).fill(1) })).toBe(10);
    expect(cost({ requests: [] })).toBe(1);
    expect(cost({ requests: new Array(11).fill(1) })).toBe(1);
    expect(cost(undefined)).toBe(1);
  });
});
