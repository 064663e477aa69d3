import { describe, expect, it } from "vitest";
import { nestsDeeperThan } from "./depth.js";

const nested = (levels: number): unknown => {
  let value: unknown = 1;
  for (let i = 0; i < levels; i++) value = i % 2 ? [value] : { a: value };
  return value;
};

describe("nestsDeeperThan", () => {
  it("counts objects and arrays as levels, scalars as none", () => {
    expect(nestsDeeperThan(1, 0)).toBe(false);
    expect(nestsDeeperThan({ requests: [{ game_id: 1 }] }, 3)).toBe(false);
    expect(nestsDeeperThan({ requests: [{ game_id: 1 }] }, 2)).toBe(true);
  });

  it("walks a body far deeper than the stack without overflowing", () => {
    expect(nestsDeeperThan(nested(200_000), 32)).toBe(true);
    expect(nestsDeeperThan(nested(32), 32)).toBe(false);
  });
});
