import { describe, expect, it } from "vitest";
import { type DatedPrices, dailyPrices, priceChange, priceChanges, pricesOn } from "./price-history.js";

const seen = (day: string, loose: string | null, complete: string | null = null): DatedPrices => ({
  day,
  prices: { loose, complete, new: null },
});

const observations = [
  seen("2026-10-03", "10.00", "20.00"),
  seen("2026-10-05", "12.00", "20.00"),
  // Two on one day: the later one holds at the day's end.
  seen("2026-10-07", "9.00", "20.00"),
  seen("2026-10-07", "11.00", null),
];

describe("daily prices", () => {
  it("carries each observation forward until the next, with nothing before the first", () => {
    const days = dailyPrices(observations, { from: "2026-10-01", to: "2026-10-08" });
    expect(days.map((d) => [d.date, d.loose, d.complete])).toEqual([
      ["2026-10-01", null, null],
      ["2026-10-02", null, null],
      ["2026-10-03", "10.00", "20.00"],
      ["2026-10-04", "10.00", "20.00"],
      ["2026-10-05", "12.00", "20.00"],
      ["2026-10-06", "12.00", "20.00"],
      ["2026-10-07", "11.00", null],
      ["2026-10-08", "11.00", null],
    ]);
  });

  it("starts a range that begins after some observations from the one in force then", () => {
    expect(dailyPrices(observations, { from: "2026-10-06", to: "2026-10-06" })).toEqual([
      { date: "2026-10-06", loose: "12.00", complete: "20.00", new: null },
    ]);
    expect(pricesOn(observations, "2026-10-02")).toEqual({ loose: null, complete: null, new: null });
  });

  it("ends on the last day of the calendar without stepping past it", () => {
    const days = dailyPrices(observations, { from: "9999-12-30", to: "9999-12-31" });
    expect(days.map((d) => [d.date, d.loose])).toEqual([
      ["9999-12-30", "11.00"],
      ["9999-12-31", "11.00"],
    ]);
  });
});

describe("price changes", () => {
  it("compares the price on `to` with the one in force 7 and 30 days before", () => {
    const [week, month] = priceChanges(observations, "2026-10-12");
    expect(week).toEqual({
      days: 7,
      since: "2026-10-05",
      loose: { start: "12.00", end: "11.00", change: "-1.00", change_ratio: -0.0833 },
      // No complete price on `to`: no change to tell.
      complete: null,
      new: null,
    });
    // Thirty days back is before the first observation: nothing to compare with.
    expect(month).toMatchObject({ days: 30, since: "2026-09-12", loose: null, complete: null });
  });

  it("counts in cents, rounds the ratio half away from zero, and has no ratio from a price of 0", () => {
    expect(priceChange("0.10", "0.30")).toEqual({
      start: "0.10",
      end: "0.30",
      change: "0.20",
      change_ratio: 2,
    });
    expect(priceChange("149.99", "159.99")?.change_ratio).toBe(0.0667);
    expect(priceChange("3.00", "2.99")).toEqual({
      start: "3.00",
      end: "2.99",
      change: "-0.01",
      change_ratio: -0.0033,
    });
    expect(priceChange("9999999999.99", "0.00")?.change).toBe("-9999999999.99");
    expect(priceChange("5.00", "5.00")).toEqual({
      start: "5.00",
      end: "5.00",
      change: "0.00",
      change_ratio: 0,
    });
    expect(priceChange("0.00", "4.00")).toMatchObject({ change: "4.00", change_ratio: null });
    expect(priceChange(null, "4.00")).toBeNull();
  });
});
