import {
  type ConditionRecommendation,
  type GameIdentity,
  type GameRecord,
  isHistoryRangeProblem,
  type LiquidityRow,
  type PaginationQuery,
  type Period,
  resolveHistoryRange,
  type SearchRow,
} from "@gmi/contract";
import { buildConditionRows, MARKET_WIDE } from "../analytics/conditions.js";
import { describeRuns } from "../analytics/day-runs.js";
import { ALL_CONSOLES, zeroDemandFields } from "../analytics/liquidity.js";
import type { ConditionSnapshotRow, LiquiditySnapshotRow, SearchSnapshotRow } from "../analytics/rows.js";
import {
  conditionRecommendation,
  type IntelligenceSort,
  type SearchSort,
  searchPlace,
  toBatchLiquidityRow,
  toGameConditionRows,
  toGameSignals,
  toLiquidityProfile,
  toLiquidityRow,
  toPricing,
  toSearchConditionRows,
  toSearchRow,
} from "../analytics/to-contract.js";
import { addDays, type IsoDay } from "../analytics/windows.js";
import { dailyPrices, priceChanges } from "../catalog/price-history.js";
import { titleKey } from "../catalog/text.js";
import { ApiError, notFound, validationFailed } from "../errors.js";
import type { CursorCodec, CursorPosition } from "../pagination/cursor.js";
import type { PageRequest } from "../pagination/page.js";
import { type PagingCaller, pagingWith } from "../pagination/paging.js";
import { dateOfWalk } from "../pagination/snapshot-walk.js";
import type { MockSnapshot, MockWorld } from "./types.js";

/**
 * Every GET answer of the API computed from a mock world by the server's rules: the same pages,
 * links, cursor checks, snapshot defaults, zero-demand rows, history ranges, prices and errors as
 * apps/server/src/reads, with the world's arrays where the server has its tables. Each read returns
 * the whole 200 body or throws the server's ApiError.
 */

/** What a read is handed beside the request: the caller (plan cap, origin, URL), the time, the cursor codec. */
export type WorldContext = { caller: PagingCaller; now: number; cursors: CursorCodec };

type SnapshotRef = { period: Period; date: IsoDay };

type SnapshotIndex = {
  snapshot: MockSnapshot;
  leaderboards: Map<string, LiquiditySnapshotRow[]>;
  profiles: Map<number, LiquiditySnapshotRow>;
  searchLists: Map<string, SearchSnapshotRow[]>;
  conditions: Map<number, ConditionSnapshotRow[]>;
};

type WorldIndex = {
  games: Map<number, GameRecord>;
  byPeriod: Map<Period, MockSnapshot[]>;
  snapshots: Map<string, SnapshotIndex>;
  maxComplete: number;
};

const indexes = new WeakMap<MockWorld, WorldIndex>();

const LIQUIDITY_RANK = { liquidity: "rankLiquidity", demand: "rankDemand", value: "rankValue" } as const;
const SEARCH_RANK = { volume: "rankVolume", momentum: "rankMomentum", unmet: "rankUnmet" } as const;

const group = <Row, Key>(rows: readonly Row[], key: (row: Row) => Key): Map<Key, Row[]> => {
  const out = new Map<Key, Row[]>();
  for (const row of rows) {
    const list = out.get(key(row));
    if (list) list.push(row);
    else out.set(key(row), [row]);
  }
  return out;
};

const worldIndex = (world: MockWorld): WorldIndex => {
  let index = indexes.get(world);
  if (index) return index;
  const byPeriod = group(world.snapshots, (s) => s.period);
  for (const list of byPeriod.values()) list.sort((a, b) => (a.date < b.date ? -1 : a.date > b.date ? 1 : 0));
  index = {
    games: new Map(world.catalog.games.map((g) => [g.id, g])),
    byPeriod,
    snapshots: new Map(),
    maxComplete: Math.max(0, ...world.catalog.games.map((g) => Number(g.prices.complete ?? 0))),
  };
  indexes.set(world, index);
  return index;
};

/** A snapshot's rows by scope and order, built on first use. */
const snapshotIndex = (world: MockWorld, ref: SnapshotRef): SnapshotIndex => {
  const index = worldIndex(world);
  const key = `${ref.period}|${ref.date}`;
  const cached = index.snapshots.get(key);
  if (cached) return cached;
  const snapshot = (index.byPeriod.get(ref.period) ?? []).find((s) => s.date === ref.date);
  if (!snapshot) throw new RangeError(`no snapshot ${key} in the world`);
  const leaderboards = new Map<string, LiquiditySnapshotRow[]>();
  for (const [scope, rows] of group(snapshot.liquidity, (r) => r.scopeConsoleId)) {
    for (const [sort, field] of Object.entries(LIQUIDITY_RANK)) {
      const ranked = rows.filter((r) => r[field] !== null).sort((a, b) => (a[field] ?? 0) - (b[field] ?? 0));
      leaderboards.set(`${scope}|${sort}`, ranked);
    }
  }
  const searchLists = new Map<string, SearchSnapshotRow[]>();
  for (const [scope, rows] of group(snapshot.searches, (r) => r.scopeConsoleId)) {
    for (const [sort, field] of Object.entries(SEARCH_RANK)) {
      const ranked = rows.filter((r) => r[field] !== null).sort((a, b) => (a[field] ?? 0) - (b[field] ?? 0));
      searchLists.set(`${scope}|${sort}`, ranked);
    }
  }
  const built: SnapshotIndex = {
    snapshot,
    leaderboards,
    profiles: new Map(
      snapshot.liquidity.filter((r) => r.scopeConsoleId === ALL_CONSOLES).map((r) => [r.gameId, r]),
    ),
    searchLists,
    conditions: group(snapshot.conditions, (r) => r.gameId),
  };
  index.snapshots.set(key, built);
  return built;
};

/** The computed dates of a period up to `today`, as runs of consecutive days (data/snapshots.ts). */
const snapshotRuns = (world: MockWorld, period: Period, today: IsoDay) => {
  const runs: Array<{ first: IsoDay; last: IsoDay }> = [];
  for (const { date } of worldIndex(world).byPeriod.get(period) ?? []) {
    if (date > today) break;
    const last = runs.at(-1);
    if (last && addDays(last.last, 1) === date) last.last = date;
    else runs.push({ first: date, last: date });
  }
  return runs;
};

/** The newest runs of computed dates a 422 lists in `details.available_dates`. */
const AVAILABLE_RUNS_LISTED = 100;

const notComputedYet = () =>
  new ApiError(
    "service_unavailable",
    "analytics have not been computed yet (the operator runs `gmi rollup`)",
  );

const todayOf = (now: number) => new Date(now).toISOString().slice(0, 10);

/** The latest date of `period` not after today whose day had events (findSnapshot without a date). */
const latestSnapshot = (world: MockWorld, period: Period, today: IsoDay): SnapshotRef | null => {
  const list = worldIndex(world).byPeriod.get(period) ?? [];
  const found = list.findLast((s) => s.date <= today && s.dayHasEvents);
  return found ? { period, date: found.date } : null;
};

/** reads/snapshot.ts, resolveSnapshot: the asked date's snapshot, else the default, else a 422/503. */
export const snapshotFor = (
  world: MockWorld,
  period: Period,
  date: IsoDay | undefined,
  now: number,
): SnapshotRef => {
  const today = todayOf(now);
  const found =
    date === undefined
      ? latestSnapshot(world, period, today)
      : date > today
        ? null
        : (worldIndex(world).byPeriod.get(period) ?? []).some((s) => s.date === date)
          ? { period, date }
          : null;
  if (found) return found;
  const runs = snapshotRuns(world, period, today);
  if (runs.length === 0 || date === undefined) throw notComputedYet();
  const why = date > today ? `is in the future (today is ${today} UTC)` : "has no computed data";
  const message = `${why} for period ${period}; dates available: ${describeRuns(runs)}`;
  throw new ApiError("validation_failed", `Invalid query parameter date: ${message}`, {
    issues: [{ location: "query", field: "date", message }],
    available_dates: runs.slice(-AVAILABLE_RUNS_LISTED),
  });
};

const identityOf = (game: GameRecord): GameIdentity => ({
  id: game.id,
  name: game.display_game_name,
  slug: game.marketplace_game_name,
  console_id: game.console_id,
  console_name: game.console_name,
});

const enabledGame = (world: MockWorld, id: number): GameRecord => {
  const game = worldIndex(world).games.get(id);
  if (!game) throw notFound("game", id);
  return game;
};

/** A game's all-consoles row, or the zero-demand row of a game the snapshot has none for (reads/profiles.ts). */
const profileRow = (world: MockWorld, ref: SnapshotRef, game: GameRecord): LiquiditySnapshotRow =>
  snapshotIndex(world, ref).profiles.get(game.id) ??
  zeroDemandFields(
    game.id,
    game.prices.complete === null ? null : Number(game.prices.complete),
    worldIndex(world).maxComplete,
    world.scoring,
  );

const snapshotMeta = (ref: SnapshotRef) => ({ period: ref.period, period_date: ref.date });

type ListQuery = PaginationQuery & {
  period: Period;
  date?: string | undefined;
  console_id?: number | undefined;
} & Record<string, unknown>;

/** reads/lists.ts: a ranked list's rows of one scope in its order, and how a row is placed and shown. */
type RankedList<Row, Out> = {
  route: string;
  sort: string;
  rows: (index: SnapshotIndex, scope: number) => Row[];
  place: (row: Row) => number;
  out: (row: Row) => Out;
};

/** Ranks are dense: a page is a rank range, a cursor resumes after its rank (reads/lists.ts). */
const rankSlice = <Row>(rows: Row[], request: PageRequest): Row[] => {
  if (request.mode === "page") return rows.slice(request.offset, request.offset + request.perPage);
  const from = request.after === null ? 0 : request.after[1];
  if (typeof from !== "number" || !Number.isInteger(from) || from < 0) {
    throw validationFailed("query", "cursor", "is not a position of this list");
  }
  return rows.slice(from, from + request.perPage + 1);
};

const rankedListBody = <Row, Out>(
  world: MockWorld,
  context: WorldContext,
  query: ListQuery,
  list: RankedList<Row, Out>,
) => {
  const paging = pagingWith({ codec: context.cursors, now: context.now }, context.caller, query, {
    route: list.route,
    scope: { period: query.period, console_id: query.console_id, sort: list.sort },
  });
  const date = dateOfWalk(paging.request, query.date);
  const ref = snapshotFor(world, query.period, date, context.now);
  const rows = list.rows(snapshotIndex(world, ref), query.console_id ?? ALL_CONSOLES);
  const page = paging.page(
    { rows: rankSlice(rows, paging.request), total: rows.length },
    (row): CursorPosition => [ref.date, list.place(row)],
    list.out,
    { date: ref.date },
  );
  return {
    data: page.data,
    meta: { ...snapshotMeta(ref), pagination: page.pagination, sort: list.sort },
    links: page.links,
  };
};

const leaderboard = (
  world: MockWorld,
  sort: IntelligenceSort,
): RankedList<LiquiditySnapshotRow, LiquidityRow> => ({
  route: "intelligence.list",
  sort,
  rows: (index, scope) => index.leaderboards.get(`${scope}|${sort}`) ?? [],
  place: (row) => row[LIQUIDITY_RANK[sort]] ?? 0,
  out: (row) => {
    const game = enabledGame(world, row.gameId);
    return toLiquidityRow(row, sort, identityOf(game), toPricing(game.prices));
  },
});

const searchList = (route: string, sort: SearchSort): RankedList<SearchSnapshotRow, SearchRow> => ({
  route,
  sort,
  rows: (index, scope) => index.searchLists.get(`${scope}|${sort}`) ?? [],
  place: (row) => searchPlace(row, sort),
  out: (row) => toSearchRow(row, sort),
});

/** `/trending`: the momentum order without its null-momentum tail. */
const trendingList: RankedList<SearchSnapshotRow, SearchRow> = {
  ...searchList("demandIntent.trending", "momentum"),
  rows: (index, scope) =>
    (index.searchLists.get(`${scope}|momentum`) ?? []).filter((r) => r.momentumValue !== null),
};

/** Stored condition rows, or the four zeroed rows of a game without condition activity. */
const conditionRows = (world: MockWorld, ref: SnapshotRef, gameId: number) => {
  const stored = snapshotIndex(world, ref).conditions.get(gameId);
  return stored && stored.length > 0 ? stored : buildConditionRows(gameId, []);
};

/** A catalog list in its total order, keyset-paged as data/catalog.ts pages it. */
const catalogPage = <Row, Out>(
  context: WorldContext,
  query: PaginationQuery & Record<string, unknown>,
  binding: { route: string; scope: Record<string, number> },
  rows: Row[],
  key: (row: Row) => CursorPosition,
  compareKeys: (a: CursorPosition, b: CursorPosition) => number,
  out: (row: Row) => Out,
) => {
  const paging = pagingWith({ codec: context.cursors, now: context.now }, context.caller, query, binding);
  const request = paging.request;
  let slice: Row[];
  if (request.mode === "page") slice = rows.slice(request.offset, request.offset + request.perPage);
  else {
    const after = request.after;
    const start = after === null ? 0 : rows.findIndex((row) => compareKeys(key(row), after) > 0);
    slice = start < 0 ? [] : rows.slice(start, start + request.perPage + 1);
  }
  const page = paging.page({ rows: slice, total: rows.length }, key, out);
  return { data: page.data, meta: { pagination: page.pagination }, links: page.links };
};

/** `display_game_name` is ICU-collated on the server ("und-x-icu"); slugs and console names are in byte order. */
const collator = new Intl.Collator("und");
const byCollation = (a: unknown, b: unknown) => collator.compare(String(a), String(b));
const byCodeUnits = (a: unknown, b: unknown) => (String(a) < String(b) ? -1 : String(a) > String(b) ? 1 : 0);
const keyOrder =
  (compareName: (a: unknown, b: unknown) => number) =>
  (a: CursorPosition, b: CursorPosition): number =>
    compareName(a[0], b[0]) || Number(a[1]) - Number(b[1]);
const sortedBy = <Row>(rows: Row[], key: (row: Row) => CursorPosition, order: ReturnType<typeof keyOrder>) =>
  [...rows].sort((a, b) => order(key(a), key(b)));

const byConsoleThenId = (a: GameRecord, b: GameRecord) =>
  byCodeUnits(a.console_name, b.console_name) || a.id - b.id;

// biome-ignore lint/suspicious/noExplicitAny: each read's query and params are parsed by its route's own schema
type Request = { query: any; params: any };

/** The GET routes of the contract, by the contract's names, answered from a world. */
export const worldReads = {
  "intelligence.list": (world: MockWorld, { query }: Request, context: WorldContext) =>
    rankedListBody(world, context, query, leaderboard(world, query.sort)),
  "intelligence.get": (world: MockWorld, { params, query }: Request, context: WorldContext) => {
    const ref = snapshotFor(world, query.period, query.date, context.now);
    const game = enabledGame(world, params.id);
    const data = toLiquidityProfile(profileRow(world, ref, game), identityOf(game), toPricing(game.prices));
    return { data, meta: snapshotMeta(ref) };
  },
  "intelligence.conditions": (world: MockWorld, { params, query }: Request, context: WorldContext) => {
    const ref = snapshotFor(world, query.period, query.date, context.now);
    const game = enabledGame(world, params.id);
    const rows = toGameConditionRows(conditionRows(world, ref, game.id));
    const data: ConditionRecommendation = conditionRecommendation(identityOf(game), game.prices, rows);
    return { data, meta: snapshotMeta(ref) };
  },
  "intelligence.history": (world: MockWorld, { params, query }: Request, context: WorldContext) => {
    const game = enabledGame(world, params.id);
    const latest = latestSnapshot(world, query.period, todayOf(context.now));
    if (!latest) throw notComputedYet();
    const range = resolveHistoryRange(query, latest.date);
    if (isHistoryRangeProblem(range)) throw validationFailed("query", range.field, range.message);
    const points = (worldIndex(world).byPeriod.get(query.period) ?? [])
      .filter((s) => s.date >= range.from && s.date <= range.to)
      .map((s) => {
        const row = profileRow(world, s, game);
        return {
          date: s.date,
          liquidity_score: row.liquidityScore,
          demand_index: row.demandIndex,
          redirects: row.redirects,
          distinct_users: row.distinctUsers,
          watch_count: row.watchCount,
          search_count: row.searchCount,
        };
      });
    // Every observation up to `to`: the price rules take the last one in force on each day.
    const observed = (
      world.catalog.prices?.[String(game.id)] ?? [{ day: "0001-01-01", prices: game.prices }]
    ).filter((o) => o.day <= range.to);
    return {
      data: {
        game: identityOf(game),
        points,
        prices: dailyPrices(observed, range),
        price_changes: priceChanges(observed, range.to),
      },
      meta: { period: query.period, from: range.from, to: range.to },
    };
  },
  "demandIntent.searches": (world: MockWorld, { query }: Request, context: WorldContext) =>
    rankedListBody(world, context, query, searchList("demandIntent.searches", query.sort)),
  "demandIntent.trending": (world: MockWorld, { query }: Request, context: WorldContext) =>
    rankedListBody(world, context, query, trendingList),
  "demandIntent.unmet": (world: MockWorld, { query }: Request, context: WorldContext) =>
    rankedListBody(world, context, query, searchList("demandIntent.unmet", "unmet")),
  "demandIntent.conditions": (world: MockWorld, { query }: Request, context: WorldContext) => {
    const ref = snapshotFor(world, query.period, query.date, context.now);
    return { data: toSearchConditionRows(conditionRows(world, ref, MARKET_WIDE)), meta: snapshotMeta(ref) };
  },
  "demandIntent.gameConditions": (world: MockWorld, { params, query }: Request, context: WorldContext) => {
    const ref = snapshotFor(world, query.period, query.date, context.now);
    const game = enabledGame(world, params.game_id);
    const data = toGameConditionRows(conditionRows(world, ref, game.id));
    return { data, meta: { ...snapshotMeta(ref), game: identityOf(game) } };
  },
  "games.titles": (world: MockWorld, { query }: Request, context: WorldContext) => {
    const key = (g: GameRecord): CursorPosition => [g.display_game_name, g.id];
    const order = keyOrder(byCollation);
    return catalogPage(
      context,
      query,
      { route: "games.titles", scope: {} },
      sortedBy(world.catalog.games, key, order),
      key,
      order,
      (g) => ({ id: g.id, display_game_name: g.display_game_name }),
    );
  },
  "games.slugs": (world: MockWorld, { query }: Request, context: WorldContext) => {
    const key = (g: GameRecord): CursorPosition => [g.marketplace_game_name, g.id];
    const order = keyOrder(byCodeUnits);
    return catalogPage(
      context,
      query,
      { route: "games.slugs", scope: {} },
      sortedBy(world.catalog.games, key, order),
      key,
      order,
      (g) => ({ id: g.id, marketplace_game_name: g.marketplace_game_name }),
    );
  },
  "games.byId": (world: MockWorld, { params }: Request) => ({
    data: enabledGame(world, params.id),
    meta: {},
  }),
  "games.bySlug": (world: MockWorld, { params }: Request) => {
    const data = world.catalog.games
      .filter((g) => g.marketplace_game_name === params.slug)
      .sort(byConsoleThenId);
    return { data, meta: { count: data.length } };
  },
  "games.byTitle": (world: MockWorld, { params }: Request) => {
    const key = titleKey(String(params.title));
    const data = world.catalog.games
      .filter((g) => titleKey(g.display_game_name) === key)
      .sort(byConsoleThenId);
    return { data, meta: { count: data.length } };
  },
  "games.byConsole": (world: MockWorld, { params, query }: Request, context: WorldContext) => {
    const key = (g: GameRecord): CursorPosition => [g.display_game_name, g.id];
    const order = keyOrder(byCollation);
    const games = world.catalog.games.filter((g) => g.console_id === params.console_id);
    return catalogPage(
      context,
      query,
      { route: "games.byConsole", scope: { console_id: params.console_id } },
      sortedBy(games, key, order),
      key,
      order,
      (g) => g,
    );
  },
  "consoles.list": (world: MockWorld, { query }: Request, context: WorldContext) => {
    const key = (c: { name: string; id: number }): CursorPosition => [c.name, c.id];
    const order = keyOrder(byCodeUnits);
    return catalogPage(
      context,
      query,
      { route: "consoles.list", scope: {} },
      sortedBy(world.catalog.consoles, key, order),
      key,
      order,
      (c) => c,
    );
  },
};

/** A batch's rows: each id's all-consoles row in the snapshot, or undefined for an unknown or disabled game. */
export const worldProfiles = (world: MockWorld, ref: SnapshotRef) => ({
  intelligence: (id: number) => {
    const game = worldIndex(world).games.get(id);
    return (
      game && toBatchLiquidityRow(profileRow(world, ref, game), identityOf(game), toPricing(game.prices))
    );
  },
  signals: (id: number) => {
    const game = worldIndex(world).games.get(id);
    return game && toGameSignals(profileRow(world, ref, game), identityOf(game));
  },
});

export type WorldReadName = keyof typeof worldReads;
