import { describe, expect, it } from "vitest";
import { ApiError } from "../errors.js";
import { dateOfWalk } from "./snapshot-walk.js";

describe("dateOfWalk", () => {
  const walk = { mode: "cursor", perPage: 25, after: ["2026-11-20", 25] } as const;

  it("reads the date asked, else the cursor's, else none (the default date)", () => {
    expect(dateOfWalk({ mode: "cursor", perPage: 25, after: [...walk.after] }, undefined)).toBe("2026-11-20");
    expect(dateOfWalk({ mode: "cursor", perPage: 25, after: [...walk.after] }, "2026-11-20")).toBe(
      "2026-11-20",
    );
    expect(dateOfWalk({ mode: "page", page: 2, perPage: 25, offset: 25 }, "2026-11-19")).toBe("2026-11-19");
    expect(dateOfWalk({ mode: "cursor", perPage: 25, after: null }, undefined)).toBeUndefined();
  });

  it("refuses a cursor of one snapshot asked with another date", () => {
    let refused: unknown;
    try {
      dateOfWalk({ mode: "cursor", perPage: 25, after: [...walk.after] }, "2026-11-21");
    } catch (error) {
      refused = error;
    }
    expect(refused).toBeInstanceOf(ApiError);
    expect((refused as ApiError).toBody().error).toMatchObject({
      code: "validation_failed",
      message: expect.stringContaining("restart from the first page"),
    });
  });
});
