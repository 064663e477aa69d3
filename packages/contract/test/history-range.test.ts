import { describe, expect, it } from "vitest";
import { HistoryQuerySchema, resolveHistoryRange } from "../src/index.js";

describe("resolveHistoryRange", () => {
  it("defaults to the 30 days ending on the latest computed date", () => {
    expect(resolveHistoryRange({}, "2026-11-20")).toEqual({ from: "2026-10-22", to: "2026-11-20" });
  });

  it("fills from as the 30 days ending on a given to", () => {
    expect(resolveHistoryRange({ to: "2026-03-01" }, "2026-11-20")).toEqual({
      from: "2026-01-31",
      to: "2026-03-01",
    });
  });

  it("fills to as 30 days from a given from, never past the latest date", () => {
    expect(resolveHistoryRange({ from: "2026-01-01" }, "2026-11-20")).toEqual({
      from: "2026-01-01",
      to: "2026-01-30",
    });
    expect(resolveHistoryRange({ from: "2026-11-10" }, "2026-11-20")).toEqual({
      from: "2026-11-10",
      to: "2026-11-20",
    });
  });

  it("refuses a from after the latest date when to is left out", () => {
    expect(resolveHistoryRange({ from: "2026-12-01" }, "2026-11-20")).toMatchObject({ field: "from" });
  });

  it("accepts exactly 90 days and refuses 91", () => {
    expect(resolveHistoryRange({ from: "2026-01-01", to: "2026-03-31" }, "2026-11-20")).toEqual({
      from: "2026-01-01",
      to: "2026-03-31",
    });
    expect(resolveHistoryRange({ from: "2026-01-01", to: "2026-04-01" }, "2026-11-20")).toMatchObject({
      field: "from",
      message: expect.stringContaining("90 days"),
    });
  });
});

describe("a from past every computed date", () => {
  it("is a problem on from, never a range reaching past year 9999", () => {
    expect(resolveHistoryRange({ from: "9999-12-31" }, "2026-06-14")).toEqual({
      field: "from",
      message: "must not be after the latest computed date (2026-06-14)",
    });
  });
});

describe("the query's refinement", () => {
  it("refuses what the range rule refuses when both ends are given, with the same message", () => {
    const asked = { from: "2026-01-01", to: "2026-04-01" };
    const parsed = HistoryQuerySchema.safeParse(asked);
    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues).toMatchObject([
      { path: ["from"], message: (resolveHistoryRange(asked, "2026-11-20") as { message: string }).message },
    ]);
    expect(
      HistoryQuerySchema.safeParse({ from: "2026-01-02", to: "2026-01-01" }).error?.issues,
    ).toMatchObject([{ path: ["from"], message: "must not be after to (2026-01-01)" }]);
    expect(HistoryQuerySchema.parse({ from: "2026-01-01", to: "2026-03-31" })).toMatchObject({
      from: "2026-01-01",
      to: "2026-03-31",
    });
  });
});
