import { describe, expect, it } from "vitest";
import { generateApiKey, hashApiKey } from "../src/domain/auth/api-key.js";
import { linesWithKeys } from "./helpers/log-capture.js";

/** What the run's key-material scan (test/log-scan.ts) finds, and what it leaves. */
describe("the key-material scan", () => {
  it("finds a key under either prefix, and nothing that only names one", () => {
    const { key, hash, lastFour } = generateApiKey();
    const test = `gmi_test_${key.slice("gmi_live_".length)}`;
    const log = [
      `{"msg":"request","authorization":"Bearer ${key}"}`,
      `{"msg":"last four ${lastFour}, hash ${hash}, ${hashApiKey(test)}"}`,
      `{"msg":"database gmi_test_mfx3k2_a1b2c3d4 dropped"}`,
      `{"msg":"a test key","err":"${test}"}`,
      `{"msg":"cut short","key":"${key.slice(0, 40)}"}`,
    ].join("\n");
    expect(linesWithKeys(log).map((hit) => hit.line)).toEqual([1, 4]);
  });
});
