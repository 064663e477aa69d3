/**
 * The request mix of `bench:traffic`, as pure functions of the seeded data and a seed: which URLs
 * real clients ask for and how often. Popularity is skewed (Zipf over the games: a few hot games, a
 * long tail), every GET route of the contract appears with parameters drawn from the seeded data,
 * and batches of 1-250 elements come with and without an Idempotency-Key.
 */

/** What the mix draws parameters from (read from the seeded database). */
export type Catalog = {
  gameIds: number[];
  slugs: string[];
  titles: string[];
  consoleIds: number[];
};

export type BenchRequest = {
  method: "GET" | "POST";
  path: string;
  /** A JSON body (batches). */
  body?: string;
  idempotencyKey?: string;
  /** Which key ring the request is sent with (one plan's keys). */
  ring: string;
  /** Which answer the bare twin gives: requests with the same answer share it. */
  answer: string;
};

/** Deterministic PRNG (mulberry32), so two runs send the same mix. */
export const random = (seed: number) => {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
};

/** Draws index i of n with weight 1/(i+1)^s: the i-th most popular item. */
export const zipf = (n: number, s: number) => {
  const cumulative: number[] = [];
  let total = 0;
  for (let i = 0; i < n; i++) {
    total += 1 / (i + 1) ** s;
    cumulative.push(total);
  }
  return (r: number) => {
    const target = r * total;
    let lo = 0;
    let hi = n - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if ((cumulative[mid] ?? 0) < target) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  };
};

const pick = <T>(list: T[], r: number): T => {
  const item = list[Math.floor(r * list.length)];
  if (item === undefined) throw new Error("empty list");
  return item;
};

/** Picks a key of `weights` in proportion to its weight. */
const weighted = <K extends string>(weights: Record<K, number>, r: number): K => {
  const entries = Object.entries(weights) as Array<[K, number]>;
  const total = entries.reduce((sum, [, w]) => sum + w, 0);
  let target = r * total;
  for (const [key, w] of entries) {
    target -= w;
    if (target < 0) return key;
  }
  return entries[entries.length - 1]?.[0] as K;
};

/** Relative frequency of each route in the mix: reads by id dominate, as they do for sellers' tools. */
export const ROUTE_WEIGHTS = {
  gameById: 18,
  intelligenceById: 18,
  intelligenceConditions: 5,
  gameConditions: 5,
  intelligenceList: 10,
  searches: 8,
  trending: 3,
  unmet: 3,
  searchConditions: 2,
  titles: 5,
  slugs: 2,
  bySlug: 3,
  byTitle: 3,
  byConsole: 4,
  consoles: 2,
  me: 2,
  intelligenceBatch: 4,
  signalsBatch: 3,
} as const;
export type RouteName = keyof typeof ROUTE_WEIGHTS;

/**
 * `count` requests of the mix for one key ring. `routes` restricts the mix (e.g. GETs only);
 * `maxBatch` is the ring's plan's max_batch_size (batches are drawn 1..min(250, maxBatch),
 * log-uniform: small batches are common, full ones rare). Half the batches carry an
 * Idempotency-Key unique to the request; the list is replayed in a loop, so those come back as
 * retries (replays) from the second pass on.
 */
export const buildMix = (
  catalog: Catalog,
  options: { ring: string; count: number; seed: number; maxBatch: number; routes?: RouteName[] },
): BenchRequest[] => {
  const next = random(options.seed);
  const hotGame = zipf(catalog.gameIds.length, 1.1);
  const hotPage = zipf(8, 1.5);
  const game = () => catalog.gameIds[hotGame(next())] ?? 1;
  const period = () => pick(["day", "7d", "7d", "7d", "30d"], next());
  const weights = Object.fromEntries(
    Object.entries(ROUTE_WEIGHTS).filter(
      ([name]) => !options.routes || options.routes.includes(name as RouteName),
    ),
  ) as Record<RouteName, number>;
  const get = (path: string): BenchRequest => ({
    method: "GET",
    path,
    ring: options.ring,
    answer: `GET ${path}`,
  });
  const batch = (path: string): BenchRequest => {
    const max = Math.min(250, options.maxBatch);
    const size = Math.max(1, Math.min(max, Math.round(Math.exp(next() * Math.log(max)))));
    const requests = Array.from({ length: size }, () => ({ game_id: game() }));
    const body = JSON.stringify({ requests });
    const keyed = next() < 0.5;
    return {
      method: "POST",
      path,
      body,
      ring: options.ring,
      answer: `POST ${path} ${body}`,
      ...(keyed ? { idempotencyKey: `bench-${options.seed}-${Math.floor(next() * 1e12).toString(36)}` } : {}),
    };
  };
  const list: BenchRequest[] = [];
  for (let i = 0; i < options.count; i++) {
    const route = weighted(weights, next());
    const page = hotPage(next()) + 1;
    switch (route) {
      case "gameById":
        list.push(get(`/api/v1/games/game/${game()}`));
        break;
      case "intelligenceById":
        list.push(get(`/api/v1/intelligence/${game()}?period=${period()}`));
        break;
      case "intelligenceConditions":
        list.push(get(`/api/v1/intelligence/${game()}/conditions?period=${period()}`));
        break;
      case "gameConditions":
        list.push(get(`/api/v1/demand-intent/games/${game()}/conditions?period=${period()}`));
        break;
      case "intelligenceList": {
        const sort = pick(["liquidity", "liquidity", "demand", "value"], next());
        const scope = next() < 0.4 ? `&console_id=${pick(catalog.consoleIds, next())}` : "";
        list.push(get(`/api/v1/intelligence?period=${period()}&sort=${sort}&page=${page}${scope}`));
        break;
      }
      case "searches": {
        const sort = pick(["volume", "volume", "momentum", "unmet"], next());
        list.push(get(`/api/v1/demand-intent/searches?period=${period()}&sort=${sort}&page=${page}`));
        break;
      }
      case "trending":
        list.push(get(`/api/v1/demand-intent/searches/trending?period=${period()}&page=${page}`));
        break;
      case "unmet":
        list.push(get(`/api/v1/demand-intent/searches/unmet?period=${period()}&page=${page}`));
        break;
      case "searchConditions":
        list.push(get(`/api/v1/demand-intent/searches/conditions?period=${period()}`));
        break;
      case "titles":
        list.push(get(`/api/v1/games/titles?page=${page}`));
        break;
      case "slugs":
        list.push(get(`/api/v1/games/slugs?page=${page}`));
        break;
      case "bySlug":
        list.push(get(`/api/v1/games/slug/${encodeURIComponent(pick(catalog.slugs, next()))}`));
        break;
      case "byTitle":
        list.push(get(`/api/v1/games/title/${encodeURIComponent(pick(catalog.titles, next()))}`));
        break;
      case "byConsole":
        list.push(get(`/api/v1/games/console/${pick(catalog.consoleIds, next())}?page=${page}`));
        break;
      case "consoles":
        list.push(get("/api/v1/consoles"));
        break;
      case "me":
        list.push(get("/api/v1/me"));
        break;
      case "intelligenceBatch":
        list.push(batch("/api/v1/intelligence/batch"));
        break;
      case "signalsBatch":
        list.push(batch("/api/v1/signals/batch"));
        break;
    }
  }
  return list;
};

/** Interleaves lists by their shares (e.g. 30% of one ring's requests, 70% of another's). */
export const blend = (parts: Array<{ list: BenchRequest[]; share: number }>, count: number, seed: number) => {
  const next = random(seed);
  const cursors = parts.map(() => 0);
  const weights = Object.fromEntries(parts.map((p, i) => [String(i), p.share]));
  const out: BenchRequest[] = [];
  for (let i = 0; i < count; i++) {
    const index = Number(weighted(weights, next()));
    const part = parts[index];
    if (!part || part.list.length === 0) continue;
    const cursor = cursors[index] ?? 0;
    const item = part.list[cursor % part.list.length];
    if (item) out.push(item);
    cursors[index] = cursor + 1;
  }
  return out;
};
