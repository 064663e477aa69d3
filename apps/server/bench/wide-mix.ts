/**
 * The wide mix of `bench:wide`, as pure functions of the seeded data and a seed: tens of thousands
 * of distinct URLs over every rolled-up date, the traffic of many customers each looking at their
 * own games and dates rather than the few hundred URLs a demo visits (bench/traffic-mix.ts).
 *
 * Two steps. The URL list: URLs drawn route by route with skewed parameters (popular games, recent
 * dates, first pages), deduplicated, in order of first appearance, so the earlier a URL comes the
 * likelier it was to be drawn. The traffic: Zipf over that list (the i-th URL asked with weight
 * 1/i^s), so a few URLs are hot and most of the list is a long tail asked now and then.
 */
import { random, zipf } from "./traffic-mix.js";

/** What the mix draws parameters from (read from the seeded database). */
export type WideCatalog = {
  /** Enabled games, most popular first. */
  gameIds: number[];
  slugs: string[];
  titles: string[];
  consoleIds: number[];
  /** The rolled-up dates, newest first. */
  dates: string[];
};

/** Share of each route among the distinct URLs: reads by id dominate, as in bench/traffic-mix.ts. */
export const WIDE_ROUTE_WEIGHTS = {
  intelligenceById: 22,
  intelligenceConditions: 5,
  gameConditions: 5,
  history: 4,
  intelligenceList: 14,
  searches: 9,
  trending: 3,
  unmet: 3,
  searchConditions: 2,
  gameById: 18,
  titles: 3,
  slugs: 1,
  bySlug: 3,
  byTitle: 3,
  byConsole: 4,
  consoles: 1,
  me: 1,
} as const;
export type WideRoute = keyof typeof WIDE_ROUTE_WEIGHTS;

const pick = <T>(list: readonly T[], r: number): T => {
  const item = list[Math.floor(r * list.length)];
  if (item === undefined) throw new Error("empty list");
  return item;
};

const routeDraw = (r: number): WideRoute => {
  const entries = Object.entries(WIDE_ROUTE_WEIGHTS) as Array<[WideRoute, number]>;
  let target = r * entries.reduce((sum, [, w]) => sum + w, 0);
  for (const [route, weight] of entries) {
    target -= weight;
    if (target < 0) return route;
  }
  return "gameById";
};

/**
 * `count` distinct URLs (paths with their query), most likely first. A quarter of the dated reads
 * leave `date` out (the latest); the others ask one of the rolled-up dates, recent ones more often.
 */
export const wideUrls = (catalog: WideCatalog, count: number, seed: number): string[] => {
  const next = random(seed);
  const hotGame = zipf(catalog.gameIds.length, 1.1);
  const hotDate = zipf(catalog.dates.length, 0.6);
  const hotPage = zipf(40, 1.2);
  const game = () => catalog.gameIds[hotGame(next())] ?? 1;
  const period = () => pick(["day", "7d", "7d", "7d", "30d"], next());
  const dated = () => {
    const p = period();
    return next() < 0.25 ? `period=${p}` : `period=${p}&date=${catalog.dates[hotDate(next())]}`;
  };
  const page = () => hotPage(next()) + 1;
  const draw = (): string => {
    switch (routeDraw(next())) {
      case "intelligenceById":
        return `/api/v1/intelligence/${game()}?${dated()}`;
      case "intelligenceConditions":
        return `/api/v1/intelligence/${game()}/conditions?${dated()}`;
      case "gameConditions":
        return `/api/v1/demand-intent/games/${game()}/conditions?${dated()}`;
      case "history":
        return `/api/v1/intelligence/${game()}/history?period=${period()}`;
      case "intelligenceList": {
        const sort = pick(["liquidity", "liquidity", "demand", "value"], next());
        const scope = next() < 0.4 ? `&console_id=${pick(catalog.consoleIds, next())}` : "";
        return `/api/v1/intelligence?${dated()}&sort=${sort}&page=${page()}${scope}`;
      }
      case "searches": {
        const sort = pick(["volume", "volume", "momentum", "unmet"], next());
        return `/api/v1/demand-intent/searches?${dated()}&sort=${sort}&page=${page()}`;
      }
      case "trending":
        return `/api/v1/demand-intent/searches/trending?${dated()}&page=${page()}`;
      case "unmet":
        return `/api/v1/demand-intent/searches/unmet?${dated()}&page=${page()}`;
      case "searchConditions":
        return `/api/v1/demand-intent/searches/conditions?${dated()}`;
      case "gameById":
        return `/api/v1/games/game/${game()}`;
      case "titles":
        return `/api/v1/games/titles?page=${page()}`;
      case "slugs":
        return `/api/v1/games/slugs?page=${page()}`;
      case "bySlug":
        return `/api/v1/games/slug/${encodeURIComponent(pick(catalog.slugs, next()))}`;
      case "byTitle":
        return `/api/v1/games/title/${encodeURIComponent(pick(catalog.titles, next()))}`;
      case "byConsole":
        return `/api/v1/games/console/${pick(catalog.consoleIds, next())}?page=${page()}`;
      case "consoles":
        return "/api/v1/consoles";
      case "me":
        return "/api/v1/me";
    }
  };
  const urls = new Set<string>();
  // The parameter space is far larger than any count asked for; the bound only guards a tiny catalog.
  for (let tries = 0; urls.size < count && tries < count * 50; tries++) urls.add(draw());
  return [...urls];
};

/** `length` indexes into a list of `size` URLs, drawn Zipf(s) over the list's order. */
export const wideTraffic = (size: number, length: number, s: number, seed: number): number[] => {
  const next = random(seed);
  const rank = zipf(size, s);
  return Array.from({ length }, () => rank(next()));
};
