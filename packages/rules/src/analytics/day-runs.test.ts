import { describe, expect, it } from "vitest";
import { describeRuns } from "./day-runs.js";

describe("describeRuns", () => {
  it("names one run as a range and a single day as itself", () => {
    expect(describeRuns([{ first: "2026-11-01", last: "2026-11-24" }])).toBe("2026-11-01 to 2026-11-24");
    expect(describeRuns([{ first: "2026-11-24", last: "2026-11-24" }])).toBe("2026-11-24");
  });

  it("shows a gap as two runs", () => {
    expect(
      describeRuns([
        { first: "2026-10-01", last: "2026-10-09" },
        { first: "2026-10-12", last: "2026-10-12" },
        { first: "2026-10-14", last: "2026-11-24" },
      ]),
    ).toBe("2026-10-01 to 2026-10-09, 2026-10-12 and 2026-10-14 to 2026-11-24");
  });

  it("names the newest runs and counts the older ones", () => {
    const runs = Array.from({ length: 7 }, (_, i) => {
      const day = `2026-10-${String(2 * i + 1).padStart(2, "0")}`;
      return { first: day, last: day };
    });
    const text = describeRuns(runs);
    expect(text).toBe("2026-10-05, 2026-10-07, 2026-10-09, 2026-10-11 and 2026-10-13 (and 2 older runs)");
  });

  it("says none when nothing is computed", () => {
    expect(describeRuns([])).toBe("none");
  });
});
