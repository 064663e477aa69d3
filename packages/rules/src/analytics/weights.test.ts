import { describe, expect, it } from "vitest";
import { parseDemandWeights, parseLiquidityWeight, parseUnmetMinSearches } from "./weights.js";

describe("parseDemandWeights", () => {
  it("reads intent, reach, watch", () => {
    expect(parseDemandWeights("0.5,0.3,0.2")).toEqual({
      ok: true,
      value: { intent: 0.5, reach: 0.3, watch: 0.2 },
    });
    expect(parseDemandWeights(" 1, 0 ,0 ")).toEqual({ ok: true, value: { intent: 1, reach: 0, watch: 0 } });
  });

  it("accepts decimal sums that are 1 on paper (0.1 + 0.2 + 0.7)", () => {
    expect(parseDemandWeights("0.1,0.2,0.7").ok).toBe(true);
  });

  it.each([
    ["0.5,0.5", "three"],
    ["0.5,0.3,0.3", "sum to 1"],
    ["0.5,0.3,x", "decimal number"],
    ["1.5,-0.3,-0.2", "decimal number"],
    ["0.5,,0.5", "decimal number"],
    ["0.5,0.3,1e-1", "decimal number"],
  ])("refuses %s", (text, message) => {
    const parsed = parseDemandWeights(text);
    expect(parsed.ok).toBe(false);
    if (!parsed.ok) expect(parsed.message).toContain(message);
  });
});

describe("parseLiquidityWeight and parseUnmetMinSearches", () => {
  it("reads a weight in 0..1", () => {
    expect(parseLiquidityWeight("0.7")).toEqual({ ok: true, value: 0.7 });
    expect(parseLiquidityWeight("1.01").ok).toBe(false);
  });

  it("reads an integer threshold of at least 1", () => {
    expect(parseUnmetMinSearches("5")).toEqual({ ok: true, value: 5 });
    expect(parseUnmetMinSearches("0").ok).toBe(false);
    expect(parseUnmetMinSearches("2.5").ok).toBe(false);
  });
});
