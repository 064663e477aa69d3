import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { manualClock } from "../clock.js";
import { startRollupScheduler } from "./scheduler.js";

describe("rollup scheduler", () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it("runs once in each matching minute, never twice at once, and not at all when off", async () => {
    const clock = manualClock(new Date("2026-11-21T00:14:00Z"));
    let runs = 0;
    let release: () => void = () => {};
    const rollup = () => {
      runs += 1;
      return new Promise<void>((resolve) => {
        release = resolve;
      });
    };
    const scheduler = startRollupScheduler("15 0 * * *", clock, rollup, () => {});
    await vi.advanceTimersByTimeAsync(60_000);
    expect(runs).toBe(0);
    clock.set(new Date("2026-11-21T00:15:10Z").getTime());
    await vi.advanceTimersByTimeAsync(60_000);
    expect(runs).toBe(1);
    // Still running at the next day's slot: not started again.
    clock.set(new Date("2026-11-22T00:15:00Z").getTime());
    await vi.advanceTimersByTimeAsync(60_000);
    expect(runs).toBe(1);
    release();
    clock.set(new Date("2026-11-23T00:15:00Z").getTime());
    await vi.advanceTimersByTimeAsync(60_000);
    expect(runs).toBe(2);
    release();
    await scheduler.stop();

    const off = startRollupScheduler("off", clock, rollup, () => {});
    await vi.advanceTimersByTimeAsync(120_000);
    expect(runs).toBe(2);
    await off.stop();
  });

  it("reports a failed run and keeps going", async () => {
    const clock = manualClock(new Date("2026-11-21T00:00:00Z"));
    const errors: unknown[] = [];
    const scheduler = startRollupScheduler(
      "* * * * *",
      clock,
      () => Promise.reject(new Error("db down")),
      (e) => errors.push(e),
    );
    await vi.advanceTimersByTimeAsync(15_000);
    clock.advance(60_000);
    await vi.advanceTimersByTimeAsync(15_000);
    expect(errors).toHaveLength(2);
    await scheduler.stop();
  });
});
