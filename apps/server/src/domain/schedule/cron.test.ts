import { describe, expect, it } from "vitest";
import { parseCron } from "./cron.js";

const at = (iso: string) => new Date(iso);

describe("parseCron", () => {
  it("matches a daily time in UTC", () => {
    const daily = parseCron("15 0 * * *");
    expect(daily.matches(at("2026-11-21T00:15:00Z"))).toBe(true);
    expect(daily.matches(at("2026-11-21T00:16:00Z"))).toBe(false);
    expect(daily.matches(at("2026-11-21T01:15:00Z"))).toBe(false);
  });

  it("reads steps, ranges and lists", () => {
    const s = parseCron("*/20 8-10 * * 1,3");
    expect(s.matches(at("2026-11-23T09:40:00Z"))).toBe(true); // a Monday
    expect(s.matches(at("2026-11-23T09:50:00Z"))).toBe(false);
    expect(s.matches(at("2026-11-24T09:40:00Z"))).toBe(false); // a Tuesday
    expect(s.matches(at("2026-11-23T11:00:00Z"))).toBe(false);
  });

  it("treats 7 as Sunday and matches either day field when both are restricted", () => {
    expect(parseCron("0 0 * * 7").matches(at("2026-11-22T00:00:00Z"))).toBe(true); // a Sunday
    const either = parseCron("0 0 1 * 1");
    expect(either.matches(at("2026-12-01T00:00:00Z"))).toBe(true); // the 1st, a Tuesday
    expect(either.matches(at("2026-11-23T00:00:00Z"))).toBe(true); // a Monday
    expect(either.matches(at("2026-11-24T00:00:00Z"))).toBe(false);
  });

  it("refuses what it cannot read", () => {
    expect(() => parseCron("61 * * * *")).toThrow(/minute/);
    expect(() => parseCron("* * * *")).toThrow(/five fields/);
    expect(() => parseCron("a * * * *")).toThrow(/cannot read/);
  });
});
