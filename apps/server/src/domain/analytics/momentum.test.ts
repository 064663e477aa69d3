import { describe, expect, it } from "vitest";
import { asMomentumLabel, momentum } from "./momentum.js";

describe("momentum = (7-day count / 7) ÷ (30-day count / 30)", () => {
  it("is unknown with a null value without a 30-day baseline", () => {
    expect(momentum({ recent7d: 0, baseline30d: 0 })).toEqual({ value: null, label: "unknown" });
  });

  it("is exactly 1.2 and rising at the boundary: 14 in 7 days vs 50 in 30 days", () => {
    // (14/7) / (50/30) = 2 / 1.6667 = 1.2 exactly on paper.
    expect(momentum({ recent7d: 14, baseline30d: 50 })).toEqual({ value: 1.2, label: "rising" });
  });

  it("is steady just below 1.2: 13 vs 50 → 390/350 = 1.1143", () => {
    expect(momentum({ recent7d: 13, baseline30d: 50 })).toEqual({ value: 1.1143, label: "steady" });
  });

  it("is exactly 0.8 and steady at the lower boundary: 28 vs 150", () => {
    // (28/7) / (150/30) = 4 / 5 = 0.8.
    expect(momentum({ recent7d: 28, baseline30d: 150 })).toEqual({ value: 0.8, label: "steady" });
  });

  it("is cooling just below 0.8: 27 vs 150 → 810/1050 = 0.7714", () => {
    expect(momentum({ recent7d: 27, baseline30d: 150 })).toEqual({ value: 0.7714, label: "cooling" });
  });

  it("labels on the exact ratio even when the rounded value reads 1.2", () => {
    // 30·41999 / (7·150000) = 1259970/1050000 = 1.199971… : published 1.2, but the pace is below 1.2.
    const m = momentum({ recent7d: 41_999, baseline30d: 150_000 });
    expect(m.label).toBe("steady");
    expect(m.value).toBe(1.2);
  });

  it("is 0 and cooling when the last 7 days are empty but the baseline is not", () => {
    expect(momentum({ recent7d: 0, baseline30d: 9 })).toEqual({ value: 0, label: "cooling" });
  });

  it("is 30/7 = 4.2857 when every event of the 30 days fell in the last 7", () => {
    expect(momentum({ recent7d: 5, baseline30d: 5 })).toEqual({ value: 4.2857, label: "rising" });
  });

  it("narrows stored labels and refuses unknown ones", () => {
    expect(asMomentumLabel("steady")).toBe("steady");
    expect(() => asMomentumLabel("flat")).toThrow(TypeError);
  });
});
