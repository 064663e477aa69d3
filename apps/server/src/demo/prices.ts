import { addDays, type IsoDay } from "../domain/analytics/windows.js";
import type { DemoGame } from "./catalog.js";
import { drawWeighted, intBetween, type Rng, substream } from "./prng.js";

/** How a title's price moves over the demo's days. */
export type PriceMood = "still" | "drifting" | "rising" | "falling";

type Prices = DemoGame["line"]["prices"];
type PricedLine = DemoGame["line"] & { observed_at: string };

/** Shop style, as the catalog's: under $20 ends in .99, above that whole dollars. */
const shopPrice = (value: number): string => {
  const dollars = Math.max(1, Math.round(value));
  return value < 20 ? `${dollars - 1}.99` : `${dollars}.00`;
};

/**
 * Most titles hold their price for months; some wander a little; a few trend, more often those whose
 * demand trends the same way (a title everyone is after gets dearer).
 */
const moodOf = (rng: Rng, game: DemoGame): PriceMood =>
  drawWeighted(rng, [
    ["still", 0.7],
    ["drifting", 0.2],
    ["rising", game.trend === "rising" ? 0.35 : 0.025],
    ["falling", game.trend === "cooling" ? 0.3 : 0.025],
  ] as const);

/** The days (after the first) on which a title of this mood changes price, and by what factor. */
const movesOf = (rng: Rng, mood: PriceMood, days: number): Array<{ day: number; factor: number }> => {
  const at = (day: number, factor: number) => ({ day: Math.min(days - 2, Math.max(1, day)), factor });
  switch (mood) {
    case "still":
      // Four in ten still change once in the 90 days, by a few percent either way.
      return rng() < 0.4
        ? [at(intBetween(rng, 1, days - 2), 1 + (rng() < 0.5 ? -1 : 1) * (0.03 + rng() * 0.05))]
        : [];
    case "drifting":
      return Array.from({ length: intBetween(rng, 2, 4) }, () =>
        at(intBetween(rng, 1, days - 2), 1 + (rng() - 0.5) * 0.12),
      );
    case "rising":
    case "falling": {
      // A step every week or two, each 2 to 5%: a fifth to a half over 90 days, the last in the last week.
      const sign = mood === "rising" ? 1 : -1;
      const steps: Array<{ day: number; factor: number }> = [];
      for (let day = days - 2 - intBetween(rng, 0, 5); day >= 1; day -= intBetween(rng, 7, 14)) {
        steps.push(at(day, 1 + sign * (0.02 + rng() * 0.03)));
      }
      return steps;
    }
  }
};

/** Every price times `factor`, in shop style; a missing price stays missing. */
const scaled = (prices: Prices, factor: number): Prices => {
  const one = (price: string | null) => (price === null ? null : shopPrice(Number(price) * factor));
  return { loose: one(prices.loose), complete: one(prices.complete), new: one(prices.new) };
};

/** Moves on the same day are one move. */
const byDay = (moves: Array<{ day: number; factor: number }>) => {
  const days = new Map<number, number>();
  for (const { day, factor } of moves) days.set(day, (days.get(day) ?? 1) * factor);
  return [...days].sort(([a], [b]) => a - b).map(([day, factor]) => ({ day, factor }));
};

/**
 * A game's catalog lines over the `days` days ending on `endDate`: the prices it started at (on the
 * first day, at midnight UTC), then one line per change, dated at an hour of a day before `endDate`
 * (so no sighting is later than a file imported on `endDate`). Worked back from the catalog's prices,
 * which the last line carries: the demo's current prices, and every score computed from them, do not
 * depend on the history. Deterministic per seed and game.
 */
export const priceLines = (
  game: DemoGame,
  options: { seed: number; endDate: IsoDay; days: number },
): PricedLine[] => {
  const { seed, endDate, days } = options;
  const start = addDays(endDate, -(days - 1));
  const line = (day: number, prices: Prices, hour: number): PricedLine => ({
    ...game.line,
    prices,
    observed_at: `${addDays(start, day)}T${String(hour).padStart(2, "0")}:00:00Z`,
  });
  const final = game.line.prices;
  const unpriced = final.loose === null && final.complete === null && final.new === null;
  if (days < 3 || unpriced) return [line(0, final, 0)];
  const rng = substream(seed ^ game.line.id, "prices");
  const moves = byDay(movesOf(rng, moodOf(rng, game), days));
  // Backwards from the catalog's prices: before a move, the price was the one after it over its factor.
  const lines: PricedLine[] = [];
  let back: number | null = null; // 1 / the product of the factors of the moves seen so far
  const prices = () => (back === null ? final : scaled(final, back));
  for (let i = moves.length - 1; i >= 0; i -= 1) {
    const move = moves[i] as { day: number; factor: number };
    lines.push(line(move.day, prices(), intBetween(rng, 8, 22)));
    back = (back ?? 1) / move.factor;
  }
  lines.push(line(0, prices(), 0));
  return lines.reverse();
};
