import {
  type ConsoleRecord,
  examples,
  type GameRecord,
  type GameSignals,
  type LiquidityRow,
  type Momentum,
  type SearchRow,
} from "@gmi/contract";

/**
 * A deterministic catalog and demand data set, grown from the contract's `examples` (game 101 is the
 * examples' Chrono Trigger), so every handler serves rows the contract's schemas accept.
 */
export interface Fixtures {
  consoles: ConsoleRecord[];
  games: GameRecord[];
  /** Liquidity rows of the games with redirect demand, unranked (`rank` 0 until sorted). */
  liquidity: LiquidityRow[];
  /** Liquidity fields of every game, demand or not (profiles, batches). */
  profiles: Map<number, Omit<LiquidityRow, "rank">>;
  signals: Map<number, GameSignals>;
  searches: SearchRow[];
}

export interface FixtureOptions {
  /** Games in the catalog (default 300). */
  games?: number | undefined;
  /** Queries in the search leaderboard (default 250). */
  searches?: number | undefined;
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

/** mulberry32: small, seedable, good enough for fixtures. */
const random = (seed: number) => () => {
  seed = (seed + 0x6d2b79f5) | 0;
  let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
  t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
};

const round = (value: number, digits: number) => Number(value.toFixed(digits));
const price = (cents: number | null) => (cents === null ? null : (cents / 100).toFixed(2));
const slugify = (name: string) =>
  name
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-|-$/g, "");

const momentum = (next: () => number, known: boolean): Momentum => {
  if (!known) return { value: null, label: "unknown" };
  const value = round(0.3 + next() * 1.4, 2);
  return { value, label: value >= 1.2 ? "rising" : value >= 0.8 ? "steady" : "cooling" };
};

export const buildFixtures = (options: FixtureOptions = {}): Fixtures => {
  const next = random(options.seed ?? 42);
  const gameCount = options.games ?? 300;

  const games: GameRecord[] = [];
  for (let i = 0; i < gameCount; i++) {
    const id = 101 + i;
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
      id,
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

  // Demand: about four games in five have redirect demand; the score follows the spec's formula.
  const demand = games.map((game, i) => {
    const redirects = i === 0 ? 412 : next() < 0.2 ? 0 : Math.round(next() ** 2 * 400);
    const users = Math.round(redirects * (0.6 + next() * 0.3));
    const watch = Math.round(redirects * next() * 0.2);
    return { game, redirects, users, watch, known: redirects > 0 && next() < 0.9 };
  });
  const maxRedirects = Math.max(1, ...demand.map((d) => d.redirects));
  const maxComplete = Math.max(1, ...games.map((g) => Number(g.prices.complete ?? 0)));

  const profiles = new Map<number, Omit<LiquidityRow, "rank">>();
  const signals = new Map<number, GameSignals>();
  const liquidity: LiquidityRow[] = [];
  for (const d of demand) {
    const index = round(d.redirects / maxRedirects, 3);
    const complete = d.game.prices.complete;
    const access = complete === null ? 0.5 : round(1 - Number(complete) / maxComplete, 3);
    const identity = {
      id: d.game.id,
      name: d.game.display_game_name,
      slug: d.game.marketplace_game_name,
      console_id: d.game.console_id,
      console_name: d.game.console_name,
    };
    const m = momentum(next, d.known);
    const row = {
      game: identity,
      demand: { redirects: d.redirects, distinct_users: d.users, watch_count: d.watch, index },
      momentum: m,
      pricing: { ...d.game.prices },
      price_accessibility: access,
      liquidity_score: Math.round(100 * (0.7 * index + 0.3 * access)),
    };
    profiles.set(d.game.id, row);
    signals.set(d.game.id, {
      game_id: d.game.id,
      found: true,
      game: identity,
      signals: {
        redirects: d.redirects,
        distinct_users: d.users,
        watch_count: d.watch,
        search_count: Math.round(d.redirects * 2.2),
      },
      momentum: m,
    });
    if (d.redirects > 0) liquidity.push({ rank: 0, ...row });
  }

  const searches: SearchRow[] = [];
  for (let i = 0; i < (options.searches ?? 250); i++) {
    const game = games[i % games.length] as GameRecord;
    const query = i === 0 ? examples.searchRow.query : `${game.display_game_name.toLowerCase()} ${i}`;
    const count = Math.round(3 + next() ** 3 * 1_000);
    const pricing = Math.round(count * (0.4 + next() * 0.4));
    const zero = Math.round(count * next() ** 2);
    searches.push({
      rank: 0,
      query,
      search: {
        search_count: count,
        pricing_count: pricing,
        site_search_count: count - pricing,
        distinct_users: Math.max(1, Math.round(count * (0.5 + next() * 0.4))),
        mobile_share: round(next(), 3),
      },
      results: {
        avg_result_count: round(next() * 20, 1),
        zero_result_count: zero,
        zero_result_share: round(zero / count, 3),
      },
      momentum: momentum(next, next() < 0.85),
      demand_score: 0,
    });
  }
  const top = Math.max(...searches.map((s) => s.search.search_count));
  for (const row of searches) row.demand_score = Math.round((100 * row.search.search_count) / top);

  return { consoles, games, liquidity, profiles, signals, searches };
};
