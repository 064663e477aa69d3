-- Titles sort with the Unicode collation (ICU root, "und-x-icu": case and accents only break ties,
-- so apple < Émile < Pokemon < Pokémon < Zelda) instead of by code point (Zelda < apple < Émile).
-- PostgreSQL built with ICU (the official and Debian packages) and the embedded PGlite both have it.
-- The indexes on the column are rebuilt with it. (No DO block: the migration runner splits the
-- script on semicolons.)
ALTER TABLE "games" ALTER COLUMN "display_game_name" TYPE TEXT COLLATE "und-x-icu";

-- The title key now folds Latin diacritics (domain/catalog/text.ts titleKey): existing keys are
-- recomputed with the same steps (NFKC, lower case under ICU, NFD, the marks after a Latin letter
-- dropped, NFC), which test/catalog-titles.test.ts checks against titleKey. Later imports compute
-- them in TypeScript.
UPDATE "games" SET "title_key" = normalize(regexp_replace(
  normalize(lower(normalize("display_game_name", NFKC) COLLATE "und-x-icu"), NFD),
  '([a-z\u00df-\u024f\u1e00-\u1eff])[\u0300-\u036f\u1ab0-\u1aff\u1dc0-\u1dff\u20d0-\u20ff\ufe20-\ufe2f]+', '\1', 'g'), NFC);
