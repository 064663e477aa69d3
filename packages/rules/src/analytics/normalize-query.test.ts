import { describe, expect, it } from "vitest";
import { MAX_QUERY_LENGTH, normalizeQuery } from "./normalize-query.js";

describe("normalizeQuery", () => {
  it.each([
    ["Chrono Trigger SNES", "chrono trigger snes"],
    ["  Pokémon   Red!! ", "pokemon red"],
    ["Zelda: Link's Awakening DX", "zelda links awakening dx"],
    ["Zelda: Link\u2019s Awakening", "zelda links awakening"],
    ["Spider-Man/Venom (Genesis)", "spider man venom genesis"],
    ["ＦＩＮＡＬ　ＦＡＮＴＡＳＹ Ⅶ", "final fantasy vii"],
    ["Super Mario Bros.\u00B3", "super mario bros 3"],
    ["Ｍｅｔａｌ Ｇｅａｒ\tSolid\n", "metal gear solid"],
    ["ÉCHEC & MAT", "echec mat"],
    ["ドラゴンクエスト", "ドラゴンクエスト"],
    ["ガンダム", "ガンダム"],
    ["Тетрис", "тетрис"],
    ["हिन्दी", "हिन्दी"],
    ["포켓몬스터", "포켓몬스터"],
    ["!!!", ""],
  ])("%s → %s", (raw, expected) => {
    expect(normalizeQuery(raw)).toBe(expected);
  });

  it("keeps kana voicing marks (only Latin letters lose their diacritics)", () => {
    expect(normalizeQuery("ガ")).not.toBe("カ");
  });

  it("is idempotent", () => {
    for (const raw of ["Pokémon Red", "ＦＩＮＡＬ Ⅶ", "Link's", "ガンダム  ", "İstanbul"]) {
      const once = normalizeQuery(raw);
      expect(normalizeQuery(once)).toBe(once);
    }
  });

  it("cuts to 200 code points without a trailing space or a split surrogate pair", () => {
    const long = `${"ab ".repeat(100)}𝔸𝔸𝔸`;
    const cut = normalizeQuery(long.repeat(2));
    expect(Array.from(cut).length).toBeLessThanOrEqual(MAX_QUERY_LENGTH);
    expect(cut).toBe(cut.trim());
    expect(normalizeQuery("😀".repeat(300))).toBe("");
    expect(Array.from(normalizeQuery("𝔸".repeat(300))).length).toBe(200);
  });
});
