import type { IsoDay } from "../domain/analytics/windows.js";
import type { NdjsonLine } from "../domain/import/parse-line.js";
import { generateCatalog } from "./catalog.js";
import { generateEvents } from "./events.js";
import { priceLines } from "./prices.js";

/** Event counts of the named scales; a number asks for exactly that many events. */
export const DEMO_SCALES = { small: 50_000, large: 2_000_000 } as const;
export type DemoScale = keyof typeof DEMO_SCALES;

export type DemoOptions = {
  /** Last day of the generated history (UTC). */
  endDate: IsoDay;
  /** Same seed, same marketplace, line for line. Default 1. */
  seed?: number;
  /** Default `small`. */
  scale?: DemoScale | number;
  /** Days of history ending on `endDate`. Default 90. */
  days?: number;
};

export const DEMO_DEFAULTS = { seed: 1, scale: "small", days: 90 } as const;

export const demoEventCount = (scale: DemoScale | number): number => {
  const count = typeof scale === "number" ? scale : DEMO_SCALES[scale];
  if (!Number.isSafeInteger(count) || count < 0)
    throw new RangeError(`event count must be a whole number: ${scale}`);
  return count;
};

/**
 * The whole demo marketplace as NDJSON records, in import order: consoles, then games with their
 * prices over the days (demo/prices.ts), then the events day by day. A generator, so a caller
 * writing 10M events to a file or a database holds one day of them at a time.
 */
export function* generateDemo(options: DemoOptions): Generator<NdjsonLine> {
  const seed = options.seed ?? DEMO_DEFAULTS.seed;
  const days = options.days ?? DEMO_DEFAULTS.days;
  if (!Number.isInteger(days) || days < 1) throw new RangeError(`days must be at least 1: ${days}`);
  const events = demoEventCount(options.scale ?? DEMO_DEFAULTS.scale);
  const catalog = generateCatalog(seed);
  yield* catalog.consoles;
  // Each game's price history, its first line declaring the game before any event of it.
  for (const game of catalog.games) yield* priceLines(game, { seed, endDate: options.endDate, days });
  yield* generateEvents(catalog.games, { seed, endDate: options.endDate, days, events });
}
