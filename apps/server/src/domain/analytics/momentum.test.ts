import { describe, expect, it } from "vitest";
import { asMomentumLabel, momentum } from "./momentum.js";

/** recent = events in D-6..D; last30d = events in D-29..D; the baseline is their difference (D-29..D-7). */
describe("momentum = (7-day count / 7) ÷ (count of the 23 days before / 23)", () => {
  it("is unknown with a null value without events before the recent week", () => {
    expect(momentum({ recent7d: 0, last30d: 0 })).toEqual({ value: null, label: "unknown" });
    // Every event in the last 7 days: no baseline, so not "rising" (the overlapping baseline said 30/7).
    expect(momentum({ recent7d: 5, last30d: 5 })).toEqual({ value: null, label: "unknown" });
  });

  it("needs 5 events in the baseline: 3 this week against 1 before is no trend", () => {
    expect(momentum({ recent7d: 3, last30d: 4 })).toEqual({ value: null, label: "unknown" });
    expect(momentum({ recent7d: 3, last30d: 7 })).toEqual({ value: null, label: "unknown" });
    // 23·3 / (7·5) = 1.9714.
    expect(momentum({ recent7d: 3, last30d: 8 })).toEqual({ value: 1.9714, label: "rising" });
  });

  it("is 1 and steady for an even pace: 7 in 7 days, 23 in the 23 before", () => {
    expect(momentum({ recent7d: 7, last30d: 30 })).toEqual({ value: 1, label: "steady" });
  });

  it("is exactly 1.2 and rising at the boundary: 42 in 7 days vs 115 in the 23 before", () => {
    // (42/7) / (115/23) = 6 / 5 = 1.2 exactly on paper.
    expect(momentum({ recent7d: 42, last30d: 157 })).toEqual({ value: 1.2, label: "rising" });
  });

  it("is steady just below 1.2: 41 vs 115 → 943/805 = 1.1714", () => {
    expect(momentum({ recent7d: 41, last30d: 156 })).toEqual({ value: 1.1714, label: "steady" });
  });

  it("is exactly 0.8 and steady at the lower boundary: 28 vs 115", () => {
    // (28/7) / (115/23) = 4 / 5 = 0.8.
    expect(momentum({ recent7d: 28, last30d: 143 })).toEqual({ value: 0.8, label: "steady" });
  });

  it("is cooling just below 0.8: 27 vs 115 → 621/805 = 0.7714", () => {
    expect(momentum({ recent7d: 27, last30d: 142 })).toEqual({ value: 0.7714, label: "cooling" });
  });

  it("labels on the exact ratio even when the rounded value reads 1.2", () => {
    // 23·41999 / (7·115000) = 965977/805000 = 1.19997… : published 1.2, but the pace is below 1.2.
    const m = momentum({ recent7d: 41_999, last30d: 156_999 });
    expect(m.label).toBe("steady");
    expect(m.value).toBe(1.2);
  });

  it("is 0 and cooling when the last 7 days are empty but the baseline is not", () => {
    expect(momentum({ recent7d: 0, last30d: 9 })).toEqual({ value: 0, label: "cooling" });
  });

  it("narrows stored labels and refuses unknown ones", () => {
    expect(asMomentumLabel("steady")).toBe("steady");
    expect(() => asMomentumLabel("flat")).toThrow(TypeError);
  });
});
