import { describe, expect, it } from "vitest";
import {
  addDays,
  containsDay,
  dayOf,
  dayStart,
  daysBetween,
  eachDay,
  isWatchActive,
  periodWindow,
  toInstantWindow,
  windowLength,
} from "./windows.js";

describe("UTC day arithmetic", () => {
  it("crosses month, year and leap-day boundaries", () => {
    expect(addDays("2026-03-01", -1)).toBe("2026-02-28");
    expect(addDays("2024-03-01", -1)).toBe("2024-02-29");
    expect(addDays("2026-12-31", 1)).toBe("2027-01-01");
    expect(daysBetween("2026-01-01", "2026-03-01")).toBe(59);
  });

  it("is not moved by daylight saving (the 2026-03-29 EU switch)", () => {
    expect(addDays("2026-03-28", 1)).toBe("2026-03-29");
    expect(addDays("2026-03-29", 1)).toBe("2026-03-30");
  });

  it("refuses days that do not exist instead of rolling over", () => {
    expect(() => dayStart("2026-02-30")).toThrow(RangeError);
    expect(() => dayStart("2026-2-3")).toThrow(RangeError);
  });

  it("puts an instant on its UTC day, whatever its offset", () => {
    expect(dayOf("2026-11-20T23:59:59.999Z")).toBe("2026-11-20");
    expect(dayOf("2026-11-21T00:30:00+01:00")).toBe("2026-11-20");
  });
});

describe("period windows", () => {
  it("day = D, 7d = D-6..D, 30d = D-29..D", () => {
    expect(periodWindow("day", "2026-11-20")).toEqual({ start: "2026-11-20", end: "2026-11-20" });
    expect(periodWindow("7d", "2026-11-20")).toEqual({ start: "2026-11-14", end: "2026-11-20" });
    expect(periodWindow("30d", "2026-11-20")).toEqual({ start: "2026-10-22", end: "2026-11-20" });
    expect(windowLength(periodWindow("30d", "2026-03-01"))).toBe(30);
  });

  it("gives half-open instants: from D-6 00:00Z to D+1 00:00Z", () => {
    const { from, to } = toInstantWindow(periodWindow("7d", "2026-11-20"));
    expect(from.toISOString()).toBe("2026-11-14T00:00:00.000Z");
    expect(to.toISOString()).toBe("2026-11-21T00:00:00.000Z");
  });

  it("lists and contains its days, ends included", () => {
    const window = periodWindow("7d", "2026-11-20");
    expect([...eachDay(window)]).toHaveLength(7);
    expect(containsDay(window, "2026-11-14")).toBe(true);
    expect(containsDay(window, "2026-11-13")).toBe(false);
    expect(containsDay(window, "2026-11-21")).toBe(false);
  });
});

describe("watch activity at the window edges (7d ending 2026-11-20: 11-14T00:00Z .. 11-21T00:00Z)", () => {
  const window = periodWindow("7d", "2026-11-20");
  const at = (iso: string) => new Date(iso);
  const alert = (created: string, removed: string | null) => ({
    createdAt: at(created),
    removedAt: removed === null ? null : at(removed),
  });

  it("counts an alert created on the last millisecond of the window", () => {
    expect(isWatchActive(alert("2026-11-20T23:59:59.999Z", null), window)).toBe(true);
  });
  it("does not count an alert created at the instant the window ends", () => {
    expect(isWatchActive(alert("2026-11-21T00:00:00.000Z", null), window)).toBe(false);
  });
  it("counts an alert removed exactly at the window's first instant", () => {
    expect(isWatchActive(alert("2026-10-01T00:00:00Z", "2026-11-14T00:00:00.000Z"), window)).toBe(true);
  });
  it("does not count an alert removed just before the window", () => {
    expect(isWatchActive(alert("2026-10-01T00:00:00Z", "2026-11-13T23:59:59.999Z"), window)).toBe(false);
  });
  it("counts an alert created before and removed after the window, or never removed", () => {
    expect(isWatchActive(alert("2026-10-01T00:00:00Z", "2026-12-01T00:00:00Z"), window)).toBe(true);
    expect(isWatchActive(alert("2026-10-01T00:00:00Z", null), window)).toBe(true);
  });
  it("counts an alert created and removed inside the window", () => {
    expect(isWatchActive(alert("2026-11-15T10:00:00Z", "2026-11-15T11:00:00Z"), window)).toBe(true);
  });
});
