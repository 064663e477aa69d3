import { PLANS } from "@gmi/contract";
import { describe, expect, it } from "vitest";
import { batchShape } from "../batch/requests.js";
import { batchCost } from "./batch-cost.js";
import { billingMonth, monthResetsAt, rateWindows } from "./windows.js";

const start = Date.UTC(2026, 1, 28, 23, 59, 30);
const tiny = { ...PLANS.free, rate_limit_per_minute: 3, rate_limit_per_day: 5, monthly_quota: 4 };

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
