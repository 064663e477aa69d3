/** Longest normalized query kept (in code points); longer input is cut, then trimmed. */
export const MAX_QUERY_LENGTH = 200;

/** Apostrophes join (link's → links) rather than split a word in two. */
const APOSTROPHES = /['\u2019\u02BC\u0060\u00B4]/gu;
/**
 * Diacritics are dropped on Latin letters only (pokémon → pokemon): in other scripts a combining mark
 * is part of the letter (Devanagari vowel signs, the kana voicing mark) and dropping it changes the word.
 */
const LATIN_MARKS = /(\p{Script=Latin})\p{M}+/gu;
/** Anything that is not a letter, a digit or a combining mark of any script becomes a separator. */
const SEPARATORS = /[^\p{L}\p{N}\p{M}]+/gu;

/**
 * The key every search aggregate groups by, applied once at import: NFKC (full-width and ligature
 * forms fold to plain ones), lower case, Latin diacritics stripped, apostrophes removed, every other
 * run of punctuation, symbols or whitespace collapsed to one space, trimmed, cut to 200 code points.
 * Idempotent: normalizing a normalized query changes nothing. May return "" (nothing searchable).
 */
export const normalizeQuery = (raw: string): string => {
  const folded = raw.normalize("NFKC").toLowerCase().replace(APOSTROPHES, "");
  const stripped = folded.normalize("NFD").replace(LATIN_MARKS, "$1").normalize("NFC");
  const spaced = stripped.replace(SEPARATORS, " ").trim();
  const points = Array.from(spaced);
  return points.length > MAX_QUERY_LENGTH ? points.slice(0, MAX_QUERY_LENGTH).join("").trimEnd() : spaced;
};
