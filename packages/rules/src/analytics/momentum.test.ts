import { describe, expect, it } from "vitest";
import { asMomentumLabel, momentum } from "./momentum.js";

/** recent7d = events in D-6..D; last30d = events in D-29..D, the recent week included. */
describe("momentum = (7-day count / 7) ÷ (30-day count / 30)", () => {
  it("is unknown with a null value exactly when the 30 days hold no event", () => {
    expect(momentum({ recent7d: 0, last30d: 0 })).toEqual({ value: null, label: "unknown" });
  });

  it("has a value from the first event: 3 searches in 30 days are a baseline", () => {
    // (1/7) / (3/30) = 30/21 = 1.4286.
    expect(momentum({ recent7d: 1, last30d: 3 })).toEqual({ value: 1.4286, label: "rising" });
    // Every event this week: 30/7 = 4.2857.
    expect(momentum({ recent7d: 3, last30d: 3 })).toEqual({ value: 4.2857, label: "rising" });
    expect(momentum({ recent7d: 0, last30d: 3 })).toEqual({ value: 0, label: "cooling" });
  });

  it("is 1 and steady for an even pace: 7 in 7 days, 30 in 30", () => {
    expect(momentum({ recent7d: 7, last30d: 30 })).toEqual({ value: 1, label: "steady" });
  });

  it("is exactly 1.2 and rising at the boundary: 14 in 7 days, 50 in 30", () => {
    // (14/7) / (50/30) = 2 / (5/3) = 6/5 = 1.2 on paper; 300·14 = 84·50 = 4,200.
    expect(momentum({ recent7d: 14, last30d: 50 })).toEqual({ value: 1.2, label: "rising" });
  });

  it("is steady just below 1.2: 14 in 7 days, 51 in 30 → 420/357 = 1.1765", () => {
    expect(momentum({ recent7d: 14, last30d: 51 })).toEqual({ value: 1.1765, label: "steady" });
  });

  it("is exactly 0.8 and steady at the lower boundary: 14 in 7 days, 75 in 30", () => {
    // (14/7) / (75/30) = 2 / 2.5 = 0.8 on paper; 300·14 = 56·75 = 4,200.
    expect(momentum({ recent7d: 14, last30d: 75 })).toEqual({ value: 0.8, label: "steady" });
  });

  it("is cooling just below 0.8: 14 in 7 days, 76 in 30 → 420/532 = 0.7895", () => {
    expect(momentum({ recent7d: 14, last30d: 76 })).toEqual({ value: 0.7895, label: "cooling" });
  });

  it("labels on the exact ratio even when the rounded value reads 1.2", () => {
    // 30·27,999 / (7·100,000) = 1.1999571…: published 1.2, but the pace is below 1.2.
    const m = momentum({ recent7d: 27_999, last30d: 100_000 });
    expect(m.label).toBe("steady");
    expect(m.value).toBe(1.2);
  });

  it("narrows stored labels and refuses unknown ones", () => {
    expect(asMomentumLabel("steady")).toBe("steady");
    expect(() => asMomentumLabel("flat")).toThrow(TypeError);
  });
});
