/**
 * Diacritics on Latin letters (Pokémon → Pokemon); in other scripts a combining mark is part of the
 * letter (Greek accents, Devanagari vowel signs, the kana voicing mark) and stays, as in query
 * normalization (domain/analytics/normalize-query.ts).
 */
const LATIN_MARKS = /(\p{Script=Latin})\p{M}+/gu;

/**
 * The key of the title lookup, stored in games.title_key: NFKC (full-width and ligature forms fold),
 * lower case, Latin diacritics dropped, NFC. `Pokémon Emerald`, `POKEMON EMERALD` and `ｐｏｋéｍｏｎ
 * emerald` are one key. Computed here, at import and at lookup, so stored and looked-up keys agree
 * for every script; the migration that introduced it recomputed existing keys with the same steps
 * in SQL (prisma/migrations/*_title_key_folds_diacritics).
 */
export const titleKey = (title: string): string =>
  title.normalize("NFKC").toLowerCase().normalize("NFD").replace(LATIN_MARKS, "$1").normalize("NFC");

/** URL slug of a title: lower-case ASCII words joined by dashes ("Pokémon Red" -> "pokemon-red"). */
export const slugify = (title: string): string =>
  title
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/&/g, " and ")
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "");
