import { describe, expect, it } from "vitest";
import { generateApiKey } from "../domain/auth/api-key.js";
import { presentedKeyReader } from "./presented-keys.js";

describe("presented keys", () => {
  it("are read from a header the same whether the header was seen before or not", () => {
    const read = presentedKeyReader(2);
    const keys = [1, 2, 3].map(() => generateApiKey());
    for (const { key, hash } of [...keys, ...keys, ...keys.reverse()]) {
      expect(read(`Bearer ${key}`)).toEqual({ hash });
      expect(read(`bearer  ${key} `)).toEqual({ hash });
    }
    for (let i = 0; i < 2; i++) {
      expect(read(undefined)).toBe("no token");
      expect(read("")).toBe("no token");
      expect(read(`Basic ${keys[0]?.key}`)).toBe("no token");
      expect(read("Bearer gmi_live_short")).toBe("malformed");
    }
  });
});
