import type { PlanLimits } from "@gmi/contract";
import { afterEach, describe, expect, it } from "vitest";
import { manualClock } from "../clock.js";
import { extraWithin, IDLE_FLUSHES } from "../domain/limits/lease.js";
import { billingMonth, rateWindows } from "../domain/limits/windows.js";
import { ApiError } from "../errors.js";
import type { LeasedLimiter } from "./leased-windows.js";
import { leasedLimiterStore } from "./leased-windows.js";
import { meter } from "./meter.js";
import { memoryUsageStore } from "./quota-store.js";
import type { LimiterStore, WindowCheck } from "./window-store.js";
import { memoryLimiterStore } from "./window-store.js";

// 10:00:30 UTC: the minute window ends at 10:01:00, the day window at midnight.
const NOW = Date.UTC(2026, 5, 15, 10, 0, 30);
const MINUTE_ENDS = Date.UTC(2026, 5, 15, 10, 1, 0);
const DAY_ENDS = Date.UTC(2026, 5, 16);

const windowsOf = (perMinute: number, perDay = 1_000_000, minuteEnds = MINUTE_ENDS): WindowCheck[] => [
  { key: `7:m:${minuteEnds}`, limit: perMinute, resetsAt: minuteEnds },
  { key: "7:d:1", limit: perDay, resetsAt: DAY_ENDS },
];

/** The shared store (Redis in production), counting the calls that reach it. */
const countedShared = () => {
  const store = memoryLimiterStore();
  const calls = { consume: 0, refund: 0, peek: 0 };
  const shared: LimiterStore = {
    consume: (...args) => {
      calls.consume += 1;
      return store.consume(...args);
    },
    peek: (windows, now) => {
      calls.peek += 1;
      return store.peek(windows, now);
    },
    refund: (windows, cost) => {
      calls.refund += 1;
      return store.refund(windows, cost);
    },
    // Kept open: the test reads the counts after a server closes.
    close: async () => {},
  };
  return { shared, calls, counts: (windows: WindowCheck[]) => store.peek(windows, NOW) };
};

let clock = NOW;
const opened: LeasedLimiter[] = [];
/** A server's leased limiter whose intervals the test ends by hand (flush). */
const server = (shared: LimiterStore) => {
  const leased = leasedLimiterStore(shared, { flushMs: 3_600_000, now: () => clock });
  opened.push(leased);
  return leased;
};
afterEach(async () => {
  clock = NOW;
  await Promise.all(opened.splice(0).map((l) => l.close()));
});

/** Charges `cost` at a time until refused; the units admitted. */
const drain = async (limiter: LimiterStore, windows: WindowCheck[], cost = 1) => {
  let admitted = 0;
  while ((await limiter.consume(windows, cost, clock)).admitted) admitted += cost;
  return admitted;
};

/** A server with one organization that sent a request in the interval just ended: its next charge leases. */
const busyOrganization = async (perMinute: number) => {
  const counted = countedShared();
  const limiter = server(counted.shared);
  const windows = windowsOf(perMinute);
  await limiter.consume(windows, 1, clock);
  await limiter.flush();
  return { ...counted, limiter, windows };
};

describe("the lease rule", () => {
  it("reserves up to the target, never more than 1/32 of what is left after the need", () => {
    expect(extraWithin(100, 600, 0, 1)).toBe(18);
    expect(extraWithin(10, 600, 0, 1)).toBe(10);
    expect(extraWithin(100, 600, 568, 1)).toBe(0);
    expect(extraWithin(100, 600, 600, 1)).toBe(0);
  });

  it("the memory store grants by the rule on the tightest window, in the same step as the request", async () => {
    const store = memoryLimiterStore();
    const windows = windowsOf(3_200, 640);
    const result = await store.consume(windows, 1, NOW, 1_000);
    // The day window has 639 left after the request: 19 ahead.
    expect(result).toEqual({ admitted: true, counts: [20, 20], granted: 19 });
  });
});

describe("rate-window leases", () => {
  it("an organization is counted one call per request until it has been busy for an interval", async () => {
    const { shared, calls, counts } = countedShared();
    const limiter = server(shared);
    const windows = windowsOf(3_000);
    for (let i = 0; i < 10; i++) await limiter.consume(windows, 1, clock);
    expect(calls.consume).toBe(10);
    expect(await counts(windows)).toEqual([10, 10]);

    await limiter.flush();
    const first = await limiter.consume(windows, 1, clock);
    // Reserved ahead: the request plus the lease, 1/32 of what was left (2,989 / 32 = 93).
    expect(await counts(windows)).toEqual([11 + 93, 11 + 93]);
    // The headers count what was served, not what is reserved.
    expect(first).toEqual({ admitted: true, counts: [11, 11], granted: 0 });
    for (let i = 0; i < 93; i++) await limiter.consume(windows, 1, clock);
    expect(calls.consume).toBe(11);
    // The headers of a free request (/me) from the lease too.
    expect(await limiter.peek(windows, clock)).toEqual([104, 104]);
    expect(calls.peek).toBe(0);
    expect(await limiter.consume(windows, 1, clock)).toMatchObject({ admitted: true, counts: [105, 105] });
    expect(calls.consume).toBe(12);
  });

  it("one server refuses exactly at the limit, with the headers of a spent window", async () => {
    const { limiter, windows, counts } = await busyOrganization(1_000);
    expect((await drain(limiter, windows)) + 1).toBe(1_000);
    expect(await limiter.consume(windows, 1, clock)).toEqual({
      admitted: false,
      counts: [1_000, 1_000],
      blocked: 0,
    });
    expect(await counts(windows)).toEqual([1_000, 1_000]);
  });

  it("a cost larger than the lease holds spends the lease first: refused only if the window cannot take it", async () => {
    const { limiter, windows } = await busyOrganization(400);
    await limiter.consume(windows, 1, clock); // reserves 12 ahead: 398 / 32
    expect(await drain(limiter, windows, 50)).toBe(350);
    // 48 left: a batch of 48 fits exactly, one more unit does not.
    // Refused with the counts of what was served (this server's unspent units are not used).
    expect(await limiter.consume(windows, 49, clock)).toMatchObject({ admitted: false, counts: [352, 352] });
    expect((await limiter.consume(windows, 48, clock)).admitted).toBe(true);
    expect((await limiter.consume(windows, 1, clock)).admitted).toBe(false);
  });

  it("two servers on one shared store: never past the limit, and all of it once both are refused", async () => {
    const { shared, counts } = countedShared();
    const [a, b] = [server(shared), server(shared)];
    const windows = windowsOf(5_000);
    for (const limiter of [a, b]) for (let i = 0; i < 50; i++) await limiter.consume(windows, 1, clock);
    await Promise.all([a.flush(), b.flush()]);
    let admitted = 100;
    // Interleaved, concurrently, the way a proxy spreads requests.
    for (let round = 0; round < 200; round++) {
      const results = await Promise.all(
        Array.from({ length: 30 }, (_, i) => (i % 3 === 0 ? a : b).consume(windows, 1, clock)),
      );
      admitted += results.filter((r) => r.admitted).length;
      const [minute = 0] = await counts(windows);
      expect(minute).toBeLessThanOrEqual(5_000);
    }
    // Each server refuses only once its own lease is spent: then every reserved unit was served.
    admitted += (await drain(a, windows)) + (await drain(b, windows));
    expect(admitted).toBe(5_000);
  });

  it("requests arriving together wait for one reservation; at the limit each is decided on its own", async () => {
    const { limiter, windows, calls } = await busyOrganization(2_000);
    const before = calls.consume;
    const results = await Promise.all(Array.from({ length: 20 }, () => limiter.consume(windows, 1, clock)));
    expect(results.every((r) => r.admitted)).toBe(true);
    expect(calls.consume).toBe(before + 1);

    await drain(limiter, windows);
    const afterDrain = calls.consume;
    const refused = await Promise.all(Array.from({ length: 20 }, () => limiter.consume(windows, 1, clock)));
    expect(refused.every((r) => !r.admitted)).toBe(true);
    // At the limit nothing is reserved ahead: each request asks the shared store, none waits on another.
    expect(calls.consume).toBe(afterDrain + 20);
  });

  it("an organization idle for IDLE_FLUSHES intervals in a row gets its unspent units back", async () => {
    const { limiter, windows, counts } = await busyOrganization(3_000);
    await limiter.consume(windows, 1, clock);
    expect(await counts(windows)).toEqual([2 + 93, 2 + 93]);
    await limiter.flush(); // an interval with requests: kept
    for (let i = 1; i < IDLE_FLUSHES; i++) await limiter.flush();
    expect(await counts(windows)).toEqual([95, 95]);
    await limiter.flush();
    expect(await counts(windows)).toEqual([2, 2]);
    expect(await limiter.peek(windows, clock)).toEqual([2, 2]);
  });

  it("when the minute ends, the unspent units go back to the day window", async () => {
    const { limiter, windows, counts } = await busyOrganization(3_000);
    await limiter.consume(windows, 1, clock);
    clock = MINUTE_ENDS + 1;
    await limiter.flush();
    const [, day] = await counts(windows);
    expect(day).toBe(2);
    // The next minute starts a lease of its own.
    const next = windowsOf(3_000, 1_000_000, MINUTE_ENDS + 60_000);
    expect(await limiter.consume(next, 1, clock)).toMatchObject({ admitted: true, counts: [1, 3] });
    expect(await counts(next)).toEqual([1, 3]);
  });

  it("a refund (a request the monthly quota refused) goes back into the lease; close gives everything back", async () => {
    const { limiter, windows, calls, counts } = await busyOrganization(3_000);
    await limiter.consume(windows, 5, clock);
    const reserved = await counts(windows);
    await limiter.refund(windows, 5);
    expect(calls.refund).toBe(0);
    expect(await counts(windows)).toEqual(reserved);
    expect(await limiter.peek(windows, clock)).toEqual([1, 1]);
    opened.splice(opened.indexOf(limiter), 1);
    await limiter.close();
    expect(await counts(windows)).toEqual([1, 1]);
  });
});

describe("meter from leases", () => {
  const plan: PlanLimits = {
    slug: "enterprise",
    name: "Test",
    rate_limit_per_minute: 3_000,
    rate_limit_per_day: 1_000_000,
    monthly_quota: null,
    max_batch_size: 10,
    max_page_size: 25,
    overage: false,
  };
  /** A usage store that holds every unmetered unit in memory, as the PostgreSQL one buffers them. */
  const usage = () => {
    const store = memoryUsageStore();
    return Object.assign(store, {
      consumeHeld: (org: number, month: string, cost: number, quota: number | null) => {
        if (quota !== null) return false;
        void store.consume(org, month, cost, quota);
        return true;
      },
    });
  };

  it("a charge held in memory is a plain value; one that must ask a store is a promise", async () => {
    const { shared } = countedShared();
    const deps = { limiter: server(shared), usage: usage(), clock: manualClock(NOW) };
    const first = meter(deps, 7, plan, 1);
    expect(first).toBeInstanceOf(Promise);
    await first;
    await deps.limiter.flush();
    expect(await meter(deps, 7, plan, 1)).toEqual({ limit: 3_000, remaining: 2_998, reset: 30 });
    expect(meter(deps, 7, plan, 1)).toEqual({ limit: 3_000, remaining: 2_997, reset: 30 });
    expect(await deps.usage.used(7, billingMonth(NOW))).toBe(3);
  });

  it("a quota refusal after windows paid from the lease gives the units back to the lease", async () => {
    const { shared, calls } = countedShared();
    const deps = { limiter: server(shared), usage: usage(), clock: manualClock(NOW) };
    const capped = { ...plan, monthly_quota: 3 };
    await meter(deps, 7, capped, 1);
    await deps.limiter.flush();
    await meter(deps, 7, capped, 2);
    const refused = await Promise.resolve(meter(deps, 7, capped, 1)).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(ApiError);
    expect((refused as ApiError).toBody().error.code).toBe("quota_exceeded");
    expect(calls.refund).toBe(0);
    expect(await deps.limiter.peek(rateWindows(7, capped, NOW), NOW)).toEqual([3, 3]);
  });
});
