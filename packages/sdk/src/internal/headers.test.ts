import { describe, expect, it } from "vitest";
import { mergeRateLimit, type RateLimit } from "./headers.js";

const at = (resetAt: number, remaining: number): RateLimit => ({ limit: 30, remaining, reset: 0, resetAt });

describe("the client-wide rate-limit state", () => {
  it("keeps the lowest remaining of one window, whatever order the answers arrive in", () => {
    const sooner = at(60_000, 4); // answered second by the server...
    const later = at(60_400, 5); // ...but reached the client last
    expect(mergeRateLimit(sooner, later)).toBe(sooner);
    expect(mergeRateLimit(later, sooner)).toBe(sooner);
  });

  it("takes a later window at once, and never goes back to an earlier one", () => {
    const old = at(60_000, 0);
    const fresh = at(120_000, 29);
    expect(mergeRateLimit(old, fresh)).toBe(fresh);
    expect(mergeRateLimit(fresh, old)).toBe(fresh);
  });

  it("starts with the first answer that carries the headers, and keeps it past one that does not", () => {
    const first = at(60_000, 10);
    expect(mergeRateLimit(undefined, first)).toBe(first);
    expect(mergeRateLimit(first, undefined)).toBe(first);
  });
});
