import type { SearchLine } from "../domain/import/parse-line.js";
import type { DemoGame } from "./catalog.js";
import { ABSENT_TITLES } from "./consoles.js";
import type { Rng } from "./prng.js";
import { drawWeighted, intBetween, pick } from "./prng.js";

type SearchCondition = NonNullable<SearchLine["condition"]>;

/** The search-specific part of a search line (who, when and from which device is the caller's). */
export type SearchShape = Pick<
  SearchLine,
  "query" | "source" | "result_count" | "condition" | "game_id" | "console_id"
>;

/** One typo as people make them on a phone: a dropped, doubled or swapped letter. */
export const misspell = (rng: Rng, text: string): string => {
  const letters = [...text];
  const positions = letters.flatMap((ch, i) => (/\p{L}/u.test(ch) && i > 0 ? [i] : []));
  if (positions.length < 2) return `${text}${text.slice(-1)}`;
  const at = pick(rng, positions);
  const kind = rng();
  if (kind < 0.4) letters.splice(at, 1);
  else if (kind < 0.7) letters.splice(at, 0, letters[at] ?? "");
  else {
    const next = letters[at + 1];
    if (next !== undefined && /\p{L}/u.test(next)) [letters[at], letters[at + 1]] = [next, letters[at] ?? ""];
    else letters.splice(at, 1);
  }
  return letters.join("");
};

const CONDITION_WORDS: Record<Exclude<SearchCondition, "any">, readonly string[]> = {
  loose: ["loose", "cart only", "disc only"],
  cib: ["cib", "complete", "complete in box", "boxed"],
  new: ["sealed", "new", "brand new"],
};

/** The condition picked in the price-lookup flow (market-wide mix: loose leads, sealed is a niche). */
const PRICING_CONDITIONS: readonly (readonly [SearchCondition, number])[] = [
  ["loose", 0.46],
  ["cib", 0.31],
  ["new", 0.08],
  ["any", 0.15],
];

const JOINERS = new Set(["of", "the", "and", "&", "in", "to"]);

/** What people type when they cannot be bothered: the main title's first words, without a leading "The". */
const shortTitle = (title: string): string => {
  const words = title
    .replace(/[:\-–].*$/, "")
    .replace(/^the\s+/i, "")
    .split(/\s+/)
    .filter(Boolean);
  const take = JOINERS.has((words[1] ?? "").toLowerCase()) ? 3 : 2;
  return words.slice(0, take).join(" ");
};

const withCase = (rng: Rng, text: string): string => {
  const roll = rng();
  return roll < 0.55 ? text.toLowerCase() : roll < 0.6 ? text.toUpperCase() : text;
};

/**
 * A search for `game`: the title as typed (casing, console names, condition words, shortened,
 * sometimes misspelled), tagged as the marketplace would tag it. Price lookups resolve the game and
 * carry a condition; site searches resolve it only when the text is close to the title.
 */
export const searchForGame = (rng: Rng, game: DemoGame): SearchShape => {
  const title = game.line.display_game_name;
  const source = rng() < 0.6 ? "pricing" : "site";
  const form = drawWeighted(rng, [
    ["title", 0.45],
    ["with-console", 0.22],
    ["with-condition", 0.1],
    ["short", 0.13],
    ["typo", 0.1],
  ] as const);
  let condition: SearchCondition | null = source === "pricing" ? drawWeighted(rng, PRICING_CONDITIONS) : null;
  let text = title;
  let consoleId: number | null = null;
  if (form === "with-console") {
    text = `${title} ${pick(rng, game.spec.aliases)}`;
    consoleId = game.spec.id;
  } else if (form === "with-condition") {
    const wanted = drawWeighted(rng, [
      ["loose", 0.5],
      ["cib", 0.38],
      ["new", 0.12],
    ] as const);
    text = `${title} ${pick(rng, CONDITION_WORDS[wanted])}`;
    condition = wanted;
  } else if (form === "short") {
    text = shortTitle(title);
  } else if (form === "typo") {
    text = misspell(rng, title);
  }
  if (source === "pricing" && consoleId === null && rng() < 0.35) consoleId = game.spec.id;
  const resolved = form !== "typo" && (source === "pricing" || form !== "short") && rng() < 0.97;
  const resultCount =
    form === "typo"
      ? rng() < 0.55
        ? 0
        : intBetween(rng, 1, 4)
      : form === "short"
        ? intBetween(rng, 4, 80)
        : intBetween(rng, 1, 6) + Math.floor(Math.sqrt(game.weight * 4000) * rng() * 3);
  return {
    query: withCase(rng, text),
    source,
    result_count: resultCount,
    condition,
    game_id: resolved ? game.line.id : null,
    console_id: consoleId,
  };
};

/** A search for a title the catalog does not carry: almost always zero results, never resolved. */
export const searchForAbsentTitle = (rng: Rng): SearchShape => {
  const title = pick(rng, ABSENT_TITLES);
  return {
    query: withCase(rng, rng() < 0.15 ? misspell(rng, title) : title),
    source: rng() < 0.3 ? "pricing" : "site",
    result_count: rng() < 0.9 ? 0 : intBetween(rng, 1, 2),
    condition: rng() < 0.2 ? pick(rng, ["loose", "cib", "any"] as const) : null,
    game_id: null,
    console_id: null,
  };
};
