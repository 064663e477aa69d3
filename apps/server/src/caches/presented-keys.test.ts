import { describe, expect, it } from "vitest";
import { generateApiKey } from "../domain/auth/api-key.js";
import { presentedKeyReader } from "./presented-keys.js";

describe("presented keys", () => {
  it("are read from a header the same whether the header was kept or not", () => {
    const read = presentedKeyReader(2);
    const keys = [1, 2, 3].map(() => generateApiKey());
    for (const { key, hash } of [...keys, ...keys, ...keys.reverse()]) {
      expect(read(`Bearer ${key}`)).toMatchObject({ hash });
      read.keep(`Bearer ${key}`, hash);
      expect(read(`Bearer ${key}`)).toMatchObject({ hash });
      expect(read(`bearer  ${key} `)).toMatchObject({ hash });
    }
    for (let i = 0; i < 2; i++) {
      expect(read(undefined)).toBe("no token");
      expect(read("")).toBe("no token");
      expect(read(`Basic ${keys[0]?.key}`)).toBe("no token");
      expect(read("Bearer gmi_live_short")).toBe("malformed");
    }
  });

  it("keeps only the headers it is told to: made-up keys never push out the kept ones", () => {
    const read = presentedKeyReader(2);
    const [a, b] = [generateApiKey(), generateApiKey()];
    expect(read(`Bearer ${a.key}`)).toEqual({ hash: a.hash });
    read.keep(`Bearer ${a.key}`, a.hash);
    read.keep(`Bearer ${b.key}`, b.hash);
    for (let n = 0; n < 100; n++) read(`Bearer ${generateApiKey().key}`);
    expect([read(`Bearer ${a.key}`), read(`Bearer ${b.key}`)]).toEqual([
      { hash: a.hash, kept: true },
      { hash: b.hash, kept: true },
    ]);
  });
});
