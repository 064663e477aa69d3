import {
  examples,
  IntelligenceBatchElementSchema,
  type LiquidityRow,
  PLANS,
  type SearchRow,
  SignalsBatchElementSchema,
} from "@gmi/contract";
import type { RouteName } from "../types.js";
import { batchResolver } from "./batch.js";
import { historyResolver } from "./history.js";
import { type ListQuery, paginate } from "./paginate.js";
import { errorReply, type Input, type Reply, type Resolver, type World } from "./reply.js";

const DAY_MS = 86_400_000;
const ok = (body: unknown): Reply => ({ status: 200, body });
const byName = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
const scopeMeta = (input: Input, world: World) => ({
  period: input.query.period,
  period_date: input.query.date ?? world.latestDate,
});
const notFound = (resource: string, id: number | string) =>
  errorReply("not_found", `No enabled ${resource} with id ${id}`, { resource, id });

const LIQUIDITY_SORT = {
  liquidity: (a: LiquidityRow, b: LiquidityRow) =>
    b.liquidity_score - a.liquidity_score || b.demand.index - a.demand.index || a.game.id - b.game.id,
  demand: (a: LiquidityRow, b: LiquidityRow) => b.demand.index - a.demand.index || a.game.id - b.game.id,
  value: (a: LiquidityRow, b: LiquidityRow) =>
    Number(b.pricing.complete ?? -1) - Number(a.pricing.complete ?? -1) ||
    b.liquidity_score - a.liquidity_score ||
    a.game.id - b.game.id,
};

const SEARCH_SORT = {
  volume: (a: SearchRow, b: SearchRow) =>
    b.search.search_count - a.search.search_count || byName(a.query, b.query),
  momentum: (a: SearchRow, b: SearchRow) =>
    (b.momentum.value ?? -1) - (a.momentum.value ?? -1) ||
    b.search.search_count - a.search.search_count ||
    byName(a.query, b.query),
  unmet: (a: SearchRow, b: SearchRow) =>
    b.results.zero_result_share - a.results.zero_result_share ||
    b.search.search_count - a.search.search_count ||
    byName(a.query, b.query),
};
/** docs/decisions.md: the `unmet` threshold. */
const UNMET_MIN_SEARCHES = 5;

const ranked = <Row extends { rank: number | null }>(rows: Row[]) =>
  rows.map((row, i) => ({ ...row, rank: i + 1 }));

const liquidityRank = (world: World, id: number) => {
  const index = [...world.fixtures.liquidity]
    .sort(LIQUIDITY_SORT.liquidity)
    .findIndex((r) => r.game.id === id);
  return index < 0 ? null : index + 1;
};

const searchList =
  (sort: keyof typeof SEARCH_SORT): Resolver =>
  (input, world) => {
    let rows = world.fixtures.searches;
    if (input.query.console_id !== undefined) {
      const names = new Set(
        world.fixtures.games
          .filter((g) => g.console_id === input.query.console_id)
          .map((g) => g.display_game_name.toLowerCase()),
      );
      rows = rows.filter((row) => [...names].some((name) => row.query.startsWith(name)));
    }
    if (input.route === "demandIntent.trending") rows = rows.filter((r) => r.momentum.value !== null);
    if (sort === "unmet") rows = rows.filter((r) => r.search.search_count >= UNMET_MIN_SEARCHES);
    const sorted = ranked([...rows].sort(SEARCH_SORT[sort]));
    const top = Math.max(1, ...sorted.map((r) => r.search.search_count));
    const scored = sorted.map((r) => ({
      ...r,
      demand_score: Math.round((100 * r.search.search_count) / top),
    }));
    return paginate(input.route, scored, input.query as ListQuery, input.url, world.state.plan, {
      ...scopeMeta(input, world),
      sort,
    });
  };

const gameList =
  <Row>(rows: (world: World, input: Input) => Row[]): Resolver =>
  (input, world) =>
    paginate(input.route, rows(world, input), input.query as ListQuery, input.url, world.state.plan, {});

const lookup =
  (
    match: (name: string, wanted: string) => boolean,
    field: "marketplace_game_name" | "display_game_name",
    param: string,
  ): Resolver =>
  (input, world) => {
    const data = world.fixtures.games.filter((g) => match(g[field], String(input.path[param])));
    return ok({ data, meta: { count: data.length } });
  };

export const resolvers = {
  "intelligence.list": (input, world) => {
    const { console_id, sort } = input.query;
    const rows = world.fixtures.liquidity.filter(
      (r) => console_id === undefined || r.game.console_id === console_id,
    );
    const sorted = ranked([...rows].sort(LIQUIDITY_SORT[sort as keyof typeof LIQUIDITY_SORT]));
    return paginate(input.route, sorted, input.query, input.url, world.state.plan, {
      ...scopeMeta(input, world),
      sort,
    });
  },
  "intelligence.get": (input, world) => {
    const profile = world.fixtures.profiles.get(input.path.id);
    if (!profile) return notFound("game", input.path.id);
    return ok({
      data: { rank: liquidityRank(world, input.path.id), ...profile },
      meta: scopeMeta(input, world),
    });
  },
  "intelligence.conditions": (input, world) => {
    const profile = world.fixtures.profiles.get(input.path.id);
    if (!profile) return notFound("game", input.path.id);
    const prices = { loose: profile.pricing.loose, cib: profile.pricing.complete, new: profile.pricing.new };
    const conditions = examples.conditionRecommendation.conditions.map((row) => {
      const price = prices[row.condition as keyof typeof prices];
      return { ...row, price, score: price === null ? 0 : row.score };
    });
    const priced = conditions.filter((row) => row.price !== null).sort((a, b) => b.score - a.score);
    const { sample_size, min_sample_size } = examples.conditionRecommendation;
    const recommended = sample_size >= min_sample_size ? (priced[0]?.condition ?? null) : null;
    const data = { game: profile.game, recommended, conditions, sample_size, min_sample_size };
    return ok({ data, meta: scopeMeta(input, world) });
  },
  "intelligence.history": historyResolver,
  "intelligence.batch": batchResolver((world, id) => {
    const profile = world.fixtures.profiles.get(id);
    return profile && { ...profile, found: true };
  }, IntelligenceBatchElementSchema),
  "demandIntent.searches": (input, world) => searchList(input.query.sort)(input, world),
  "demandIntent.trending": searchList("momentum"),
  "demandIntent.unmet": searchList("unmet"),
  "demandIntent.conditions": (input, world) =>
    ok({ data: examples.searchConditionRows, meta: scopeMeta(input, world) }),
  "demandIntent.gameConditions": (input, world) => {
    const profile = world.fixtures.profiles.get(input.path.game_id);
    if (!profile) return notFound("game", input.path.game_id);
    return ok({ data: examples.gameConditionRows, meta: { ...scopeMeta(input, world), game: profile.game } });
  },
  "games.titles": gameList((world) =>
    [...world.fixtures.games]
      .sort((a, b) => byName(a.display_game_name, b.display_game_name) || a.id - b.id)
      .map(({ id, display_game_name }) => ({ id, display_game_name })),
  ),
  "games.slugs": gameList((world) =>
    [...world.fixtures.games]
      .sort((a, b) => byName(a.marketplace_game_name, b.marketplace_game_name) || a.id - b.id)
      .map(({ id, marketplace_game_name }) => ({ id, marketplace_game_name })),
  ),
  "games.byId": (input, world) => {
    const game = world.fixtures.games.find((g) => g.id === input.path.id);
    return game ? ok({ data: game, meta: {} }) : notFound("game", input.path.id);
  },
  "games.bySlug": lookup((name, wanted) => name === wanted, "marketplace_game_name", "slug"),
  "games.byTitle": lookup(
    (name, wanted) => name.toLowerCase() === wanted.toLowerCase(),
    "display_game_name",
    "title",
  ),
  "games.byConsole": gameList((world, input) =>
    world.fixtures.games
      .filter((g) => g.console_id === input.path.console_id)
      .sort((a, b) => byName(a.display_game_name, b.display_game_name) || a.id - b.id),
  ),
  "consoles.list": gameList((world) =>
    [...world.fixtures.consoles].sort((a, b) => byName(a.name, b.name) || a.id - b.id),
  ),
  "account.me": (_input, world) => {
    const { overage: _overage, ...plan } = PLANS[world.state.plan];
    const base = examples.accountRecord;
    const now = world.state.now();
    return ok({
      data: {
        ...base,
        plan,
        api_key: { ...base.api_key, scopes: [...world.state.scopes] },
        usage: {
          month: { ...base.usage.month, used: world.state.monthUsed, quota: plan.monthly_quota },
          // The mock counts from its start or reset, which a test's month and day share.
          day: {
            used: world.state.monthUsed,
            limit: plan.rate_limit_per_day,
            resets_in: Math.ceil((DAY_MS - (now % DAY_MS)) / 1000),
          },
        },
      },
      meta: {},
    });
  },
  "signals.batch": batchResolver((world, id) => world.fixtures.signals.get(id), SignalsBatchElementSchema),
} satisfies Record<RouteName, Resolver>;
