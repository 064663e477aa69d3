import type { IsoDay } from "../domain/analytics/windows.js";
import { addDays, dayStart } from "../domain/analytics/windows.js";
import type { RedirectLine, SearchLine, WatchLine } from "../domain/import/parse-line.js";
import type { DemoGame, Trend } from "./catalog.js";
import type { Rng } from "./prng.js";
import { cumulative, drawIndex, drawWeighted, hashUnit, intBetween, substream, zipfWeight } from "./prng.js";
import type { SearchShape } from "./queries.js";
import { searchForAbsentTitle, searchForGame } from "./queries.js";

export type EventLine = RedirectLine | WatchLine | SearchLine;

export type EventOptions = { seed: number; endDate: IsoDay; days: number; events: number };

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;

/** Sunday first, as `getUTCDay`: weekends browse most, Mondays least. */
const WEEKDAY = [1.25, 0.88, 0.92, 0.95, 1, 1.06, 1.3];
/** UTC hours: a trough before dawn, an evening peak. */
const HOURS = cumulative([
  0.5, 0.3, 0.2, 0.15, 0.15, 0.2, 0.4, 0.7, 0.9, 1, 1.05, 1.1, 1.2, 1.2, 1.15, 1.15, 1.2, 1.35, 1.6, 1.85, 2,
  1.9, 1.5, 0.9,
]);

/** Share of searches for titles the catalog lacks (the zero-result queries of `unmet`). */
const ABSENT_SEARCH_SHARE = 0.06;

/**
 * How a title's demand moves over the window (p = 0 on the first day, 1 on the last): rising titles
 * take off over the last ~4 weeks (0.4 → 4), cooling ones fade over the same stretch (2.2 → 0.3), so
 * the 7-day pace against the 30-day baseline ends near 1.75 and 0.38 (titles with 30 redirects or
 * more in the 30 days, seed 1): clearly rising, clearly cooling.
 */
export const trendFactor = (trend: Trend, p: number): number => {
  if (trend === "rising") return p < 0.7 ? 0.4 : 0.4 + ((p - 0.7) / 0.3) * 3.6;
  if (trend === "cooling") return p < 0.7 ? 2.2 : 2.2 - ((p - 0.7) / 0.3) * 1.9;
  return 1;
};

/** Splits `total` over `weights` in whole numbers that add up to exactly `total`. */
export const apportion = (total: number, weights: readonly number[]): number[] => {
  const sum = weights.reduce((s, w) => s + w, 0);
  let running = 0;
  let given = 0;
  return weights.map((w) => {
    running += w;
    const upTo = Math.round((total * running) / sum);
    const count = upTo - given;
    given = upTo;
    return count;
  });
};

const iso = (ms: number): string => `${new Date(ms).toISOString().slice(0, 19)}Z`;

type Timed = { at: number; order: number; line: EventLine };

/**
 * Redirects, watchlist alerts and searches over `days` days ending on `endDate`, yielded day by day in
 * time order; only one day's events are held in memory. About 33% redirects, 10% alerts, 57%
 * searches; ~70% from mobile (per-user device habits); Zipf-like users, so heavy users repeat.
 */
export function* generateEvents(games: readonly DemoGame[], options: EventOptions): Generator<EventLine> {
  const rng = substream(options.seed, "events");
  const start = addDays(options.endDate, -(options.days - 1));
  const endMs = dayStart(options.endDate).getTime() + DAY_MS;
  const dayWeights = Array.from({ length: options.days }, (_, d) => {
    const weekday = dayStart(addDays(start, d)).getUTCDay();
    return (WEEKDAY[weekday] ?? 1) * (1 + (0.1 * d) / options.days);
  });
  const perDay = apportion(options.events, dayWeights);
  const userCount = Math.max(200, Math.round(options.events / 20));
  const users = cumulative(Array.from({ length: userCount }, (_, u) => zipfWeight(u, 0.9, 10)));
  const userSeed = options.seed ^ 0x5bd1e995;

  for (let d = 0; d < options.days; d += 1) {
    const p = options.days > 1 ? d / (options.days - 1) : 1;
    const weights = cumulative(
      games.map((g) => g.weight * trendFactor(g.trend, p) * (g.line.enabled === false ? 0.3 : 1)),
    );
    const dayMs = dayStart(addDays(start, d)).getTime();
    const batch: Timed[] = [];
    for (let i = 0; i < (perDay[d] ?? 0); i += 1) {
      const at = dayMs + drawIndex(rng, HOURS) * HOUR_MS + Math.floor(rng() * 3600) * 1000;
      const user = drawIndex(rng, users);
      const mobileFirst = hashUnit(userSeed, user) < 0.75;
      const device = rng() < (mobileFirst ? 0.9 : 0.1) ? "mobile" : "desktop";
      const line = makeEvent(rng, games, weights, { at, endMs, userId: `u${user + 1}`, device });
      batch.push({ at, order: i, line });
    }
    batch.sort((a, b) => a.at - b.at || a.order - b.order);
    for (const { line } of batch) yield line;
  }
}

type Context = { at: number; endMs: number; userId: string; device: "mobile" | "desktop" };

const makeEvent = (rng: Rng, games: readonly DemoGame[], weights: Float64Array, ctx: Context): EventLine => {
  const kind = rng();
  if (kind >= 0.43 && rng() < ABSENT_SEARCH_SHARE) {
    return searchLine(searchForAbsentTitle(rng), ctx);
  }
  const game = games[drawIndex(rng, weights)];
  if (game === undefined) throw new RangeError("empty catalog");
  const gameId = game.line.id;
  const hasSealed = game.line.prices.new !== null;
  if (kind < 0.33) {
    const condition = drawWeighted(rng, [
      ["loose", 0.5],
      ["cib", 0.33],
      ["new", hasSealed ? 0.1 : 0.02],
      [null, 0.07],
    ] as const);
    return {
      type: "redirect",
      game_id: gameId,
      user_id: ctx.userId,
      occurred_at: iso(ctx.at),
      condition,
      device: ctx.device,
    };
  }
  if (kind < 0.43) {
    const condition = drawWeighted(rng, [
      ["loose", 0.42],
      ["cib", 0.4],
      ["new", hasSealed ? 0.12 : 0.03],
      [null, 0.06],
    ] as const);
    const removedAt = rng() < 0.35 ? ctx.at + intBetween(rng, 1, 45 * 24) * HOUR_MS : null;
    return {
      type: "watch",
      game_id: gameId,
      user_id: ctx.userId,
      created_at: iso(ctx.at),
      removed_at: removedAt !== null && removedAt < ctx.endMs ? iso(removedAt) : null,
      condition,
    };
  }
  return searchLine(searchForGame(rng, game), ctx);
};

/** Keys in the documented order, so the NDJSON reads like docs/data-format.md. */
const searchLine = (shape: SearchShape, ctx: Context): SearchLine => ({
  type: "search",
  query: shape.query,
  user_id: ctx.userId,
  occurred_at: iso(ctx.at),
  source: shape.source,
  device: ctx.device,
  result_count: shape.result_count,
  condition: shape.condition,
  game_id: shape.game_id,
  console_id: shape.console_id,
});
