import { describe, expect, it } from "vitest";
import { parseLsn, replayLagMs, type StandbyCheck, standbyState } from "./standby-state.js";

const RULES = { checkMs: 1_000, maxLagMs: 5_000 };
const checked = (at: number, fingerprint = "v1"): StandbyCheck & { ok: true } => ({
  at,
  ok: true,
  recovering: true,
  replayed: 100n,
  fingerprint,
});

describe("parseLsn", () => {
  it("orders positions across the high word", () => {
    expect(parseLsn("0/3000148")).toBe(0x3000148n);
    expect(parseLsn("16/B374D848")).toBe((0x16n << 32n) | 0xb374d848n);
    expect(parseLsn("1/0") > parseLsn("0/FFFFFFFF")).toBe(true);
  });
});

describe("replayLagMs", () => {
  const positions = [
    { at: 1_000, lsn: 10n },
    { at: 2_000, lsn: 20n },
    { at: 3_000, lsn: 30n },
  ];
  it("is 0 for a standby that has replayed the newest position seen", () => {
    expect(replayLagMs(positions, 30n, 3_500)).toBe(0);
    expect(replayLagMs(positions, 31n, 3_500)).toBe(0);
  });
  it("is the age of the oldest position not replayed", () => {
    expect(replayLagMs(positions, 25n, 3_500)).toBe(500);
    expect(replayLagMs(positions, 15n, 3_500)).toBe(1_500);
    expect(replayLagMs(positions, 5n, 8_000)).toBe(7_000);
  });
  it("knows of no lag before the primary was seen", () => {
    expect(replayLagMs([], 0n, 9_000)).toBe(0);
  });
});

describe("standbyState", () => {
  it("serves with the primary's fingerprint, within the lag bound, checked lately", () => {
    expect(standbyState(checked(9_000), 0, "v1", 9_500, RULES)).toBe("serving");
    expect(standbyState(checked(9_000), 5_000, "v1", 9_500, RULES)).toBe("serving");
  });
  it("is behind without the data of the primary's current fingerprint", () => {
    expect(standbyState(checked(9_000, "v1"), 0, "v2", 9_500, RULES)).toBe("behind");
  });
  it("is lagging past the bound, whatever its fingerprint", () => {
    expect(standbyState(checked(9_000), 5_001, "v1", 9_500, RULES)).toBe("lagging");
  });
  it("is down unchecked, unreachable, not checked lately, or promoted", () => {
    expect(standbyState(null, 0, "v1", 9_500, RULES)).toBe("down");
    expect(standbyState({ at: 9_000, ok: false, error: "refused" }, 0, "v1", 9_500, RULES)).toBe("down");
    expect(standbyState(checked(6_000), 0, "v1", 9_500, RULES)).toBe("down");
    expect(standbyState({ ...checked(9_000), recovering: false }, 0, "v1", 9_500, RULES)).toBe("down");
  });
});
