import {
  type ConsoleRecord,
  examples,
  type GameRecord,
  type GameSignals,
  type LiquidityRow,
  PERIODS,
  SEARCH_CONDITIONS,
  type SearchRow,
} from "@gmi/contract";
import { buildConditionRows, MARKET_WIDE } from "@gmi/rules/analytics/conditions";
import {
  ALL_CONSOLES,
  buildLiquidityRows,
  type GameAggregate,
  scoreLiquidityScope,
} from "@gmi/rules/analytics/liquidity";
import { buildSearchRows, type QueryAggregate } from "@gmi/rules/analytics/search-rows";
import { DEFAULT_SCORING } from "@gmi/rules/analytics/weights";
import { addDays } from "@gmi/rules/analytics/windows";
import { slugify } from "@gmi/rules/catalog/text";
import { mulberry32 } from "@gmi/rules/prng";
import { worldProfiles, worldReads } from "@gmi/rules/world/reads";
import { MOCK_WORLD_VERSION, type MockSnapshot, type MockWorld } from "@gmi/rules/world/types";

/**
 * The rows a test most often compares with, read from the world the mocks serve (its latest 7d
 * snapshot, all consoles): the leaderboard's rows, every game's profile and signals, the searches.
 */
export interface Fixtures {
  consoles: ConsoleRecord[];
  games: GameRecord[];
  /** Leaderboard rows (games with redirect demand), in liquidity order. */
  liquidity: LiquidityRow[];
  /** Liquidity fields of every game, demand or not (profiles, batches). */
  profiles: Map<number, Omit<LiquidityRow, "rank">>;
  signals: Map<number, GameSignals>;
  /** Search rows, in volume order. */
  searches: SearchRow[];
}

export interface FixtureOptions {
  /** Games in the generated catalog (default 300). */
  games?: number | undefined;
  /** Queries in the generated search leaderboard (default 250). */
  searches?: number | undefined;
  /** Days of snapshots per period in the generated world (default 90, the longest history range). */
  days?: number | undefined;
  seed?: number | undefined;
}

const CONSOLES: Array<[string, string]> = [
  ["Super Nintendo", "snes"],
  ["Nintendo 64", "n64"],
  ["PlayStation", "ps1"],
  ["Sega Genesis", "genesis"],
  ["Game Boy", "gb"],
  ["Nintendo Entertainment System", "nes"],
];
const FIRST = ["Chrono", "Super", "Final", "Mega", "Star", "Dragon", "Secret", "Donkey", "Metal", "Sonic"];
const SECOND = [
  "Quest",
  "Fighter",
  "Legend",
  "Saga",
  "Racer",
  "Warrior",
  "Odyssey",
  "Knight",
  "Force",
  "Tales",
];
const THIRD = ["", " II", " III", " Advance", " Deluxe", " Turbo", " Origins", " 64", " Zero", " X"];
const PERIOD_SCALE = { day: 1 / 7, "7d": 1, "30d": 30 / 7 } as const;

const price = (cents: number | null) => (cents === null ? null : (cents / 100).toFixed(2));

const catalogOf = (next: () => number, count: number) => {
  const games: GameRecord[] = [];
  for (let i = 0; i < count; i++) {
    if (i === 0) {
      games.push(structuredClone(examples.gameRecord) as GameRecord);
      continue;
    }
    const [consoleName, consoleSlug] = CONSOLES[i % CONSOLES.length] as [string, string];
    const name = `${FIRST[i % 10]} ${SECOND[Math.floor(i / 10) % 10]}${THIRD[Math.floor(i / 100) % 10]}`;
    const loose = next() < 0.1 ? null : Math.round(500 + next() * 15_000);
    const complete = loose === null || next() < 0.1 ? null : Math.round(loose * (1.3 + next()));
    const sealed = complete === null || next() < 0.5 ? null : Math.round(complete * (1.5 + next() * 2));
    games.push({
      id: 101 + i,
      display_game_name: name,
      marketplace_game_name: slugify(name),
      console_id: (i % CONSOLES.length) + 1,
      console_name: consoleName,
      console_slug: consoleSlug,
      prices: { loose: price(loose), complete: price(complete), new: price(sealed) },
    });
  }
  const consoles: ConsoleRecord[] = CONSOLES.map(([name, slug], i) => ({
    id: i + 1,
    name,
    slug,
    game_count: games.filter((g) => g.console_id === i + 1).length,
  }));
  return { consoles, games };
};

/**
 * A deterministic world grown from the contract's `examples` (game 101 is the examples' Chrono
 * Trigger): weekly demand per game and query, varied by a wave over the days, aggregated per period
 * and scored by the server's own rules (`@gmi/rules`), so ranks, scores, shares and momentum are
 * what the server would compute from such activity. The latest date holds every scope, searches
 * and conditions; the days before it the all-consoles rows the history charts read.
 */
export const generateWorld = (options: FixtureOptions & { latestDate: string }): MockWorld => {
  const next = mulberry32(options.seed ?? 42);
  const { consoles, games } = catalogOf(next, options.games ?? 300);
  const demand = games.map((game, i) => {
    const redirects = i === 0 ? 412 : next() < 0.2 ? 0 : Math.round(next() ** 2 * 400);
    return {
      game,
      redirects,
      users: Math.round(redirects * (0.6 + next() * 0.3)),
      watch: Math.round(redirects * next() * 0.2),
      pace: redirects > 0 && next() < 0.9 ? 0.4 + next() * 1.2 : 0,
    };
  });
  const queries = Array.from({ length: options.searches ?? 250 }, (_, i) => {
    const game = games[i % games.length] as GameRecord;
    const count = Math.round(3 + next() ** 3 * 1_000);
    return {
      game,
      query: i === 0 ? examples.searchRow.query : `${game.display_game_name.toLowerCase()} ${i}`,
      count,
      pricing: 0.4 + next() * 0.4,
      users: 0.5 + next() * 0.4,
      mobile: next(),
      results: next() * 20,
      zero: next() ** 2,
      pace: next() < 0.85 ? 0.4 + next() * 1.2 : 0,
    };
  });

  const days = options.days ?? 90;
  const snapshots: MockSnapshot[] = [];
  for (const period of PERIODS) {
    for (let back = days - 1; back >= 0; back--) {
      const date = addDays(options.latestDate, -back);
      const scale = PERIOD_SCALE[period] * Math.max(0, 1 + 0.25 * Math.sin(back / 3) - 0.005 * back);
      const count = (n: number) => Math.round(n * scale);
      const aggregates: GameAggregate[] = demand.map((d) => ({
        gameId: d.game.id,
        consoleId: d.game.console_id,
        redirects: count(d.redirects),
        distinctUsers: Math.min(count(d.users), count(d.redirects)),
        watchCount: count(d.watch),
        searchCount: count(d.redirects * 2.2),
        redirects7d: Math.round(d.redirects * d.pace),
        redirects30d: d.pace === 0 ? 0 : Math.round((d.redirects * 30) / 7),
        priceComplete: d.game.prices.complete === null ? null : Number(d.game.prices.complete),
      }));
      const latest = back === 0;
      const liquidity = latest
        ? buildLiquidityRows(aggregates, DEFAULT_SCORING)
        : scoreLiquidityScope(ALL_CONSOLES, aggregates, DEFAULT_SCORING);
      const searchAggregates: QueryAggregate[] = latest
        ? queries.flatMap((q) =>
            [ALL_CONSOLES, q.game.console_id].map((scopeConsoleId) => {
              const searchCount = Math.max(1, count(q.count));
              const pricingCount = Math.round(searchCount * q.pricing);
              return {
                scopeConsoleId,
                query: q.query,
                searchCount,
                pricingCount,
                siteSearchCount: searchCount - pricingCount,
                distinctUsers: Math.max(1, Math.round(searchCount * q.users)),
                mobileCount: Math.round(searchCount * q.mobile),
                resultCountSum: Math.round(searchCount * q.results),
                zeroResultCount: Math.round(searchCount * q.zero),
                searches7d: Math.round(q.count * q.pace),
                searches30d: q.pace === 0 ? 0 : Math.round((q.count * 30) / 7),
              };
            }),
          )
        : [];
      const conditions = latest
        ? [
            ...buildConditionRows(
              MARKET_WIDE,
              SEARCH_CONDITIONS.map((condition, i) => ({
                condition,
                searchCount: count(900 - 200 * i),
                distinctUsers: count(600 - 130 * i),
                mobileCount: count(300 - 60 * i),
              })),
            ),
            ...demand
              .filter((d) => d.redirects > 0)
              .flatMap((d) =>
                buildConditionRows(
                  d.game.id,
                  SEARCH_CONDITIONS.map((condition, i) => ({
                    condition,
                    searchCount: count((d.redirects * (4 - i)) / 5),
                    distinctUsers: count((d.users * (4 - i)) / 6),
                    mobileCount: count((d.redirects * (4 - i)) / 12),
                    ...(condition === "any"
                      ? {}
                      : {
                          redirects: count((d.redirects * (3 - i)) / 4),
                          watchCount: count((d.watch * (3 - i)) / 4),
                        }),
                  })),
                ),
              ),
          ]
        : [];
      snapshots.push({
        period,
        date,
        dayHasEvents: true,
        liquidity,
        searches: buildSearchRows(searchAggregates, DEFAULT_SCORING),
        conditions,
      });
    }
  }
  return { version: MOCK_WORLD_VERSION, scoring: DEFAULT_SCORING, catalog: { consoles, games }, snapshots };
};

/** The `Fixtures` view of a world: its latest 7d snapshot (the default period), all consoles. */
export const fixturesOf = (world: MockWorld): Fixtures => {
  const latest = world.snapshots
    .filter((s) => s.period === "7d" && s.dayHasEvents)
    .reduce<string | undefined>((max, s) => (max === undefined || s.date > max ? s.date : max), undefined);
  const ref = { period: "7d" as const, date: latest ?? "" };
  const snapshot = world.snapshots.find((s) => s.period === "7d" && s.date === latest);
  const rows = worldProfiles(world, ref);
  const profiles = new Map<number, Omit<LiquidityRow, "rank">>();
  const signals = new Map<number, GameSignals>();
  for (const game of world.catalog.games) {
    const { found: _found, ...profile } = rows.intelligence(game.id) ?? { found: true };
    if ("game" in profile) profiles.set(game.id, profile as Omit<LiquidityRow, "rank">);
    const signal = rows.signals(game.id);
    if (signal) signals.set(game.id, signal);
  }
  const all = (name: "intelligence.list" | "demandIntent.searches", sort: string) => {
    if (!snapshot) return [];
    const query = { period: "7d", date: latest, sort, limit: 1_000_000, page: 1, paginate: "page" };
    const context = {
      caller: { maxPageSize: 1_000_000, origin: "https://fixtures.invalid", url: "/" },
      now: Date.parse(`${latest}T12:00:00Z`),
      cursors: { encode: () => "", decode: () => [] },
    };
    return worldReads[name](world, { query, params: {} }, context).data;
  };
  return {
    consoles: world.catalog.consoles,
    games: world.catalog.games,
    liquidity: all("intelligence.list", "liquidity") as LiquidityRow[],
    profiles,
    signals,
    searches: all("demandIntent.searches", "volume") as SearchRow[],
  };
};

/** The default world's fixtures (kept for callers of the 0.x API). */
export const buildFixtures = (options: FixtureOptions & { latestDate?: string } = {}): Fixtures =>
  fixturesOf(generateWorld({ ...options, latestDate: options.latestDate ?? "2026-11-20" }));
