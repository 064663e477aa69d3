import type { ConsoleRecord, GameRecord, Period, Pricing } from "@gmi/contract";
import { PERIOD_DAYS, PERIODS } from "@gmi/contract";
import { buildConditionRows, type ConditionAggregate, MARKET_WIDE } from "../analytics/conditions.js";
import { buildLiquidityRows, type GameAggregate } from "../analytics/liquidity.js";
import { buildSearchRows, type QueryAggregate } from "../analytics/search-rows.js";
import { DEFAULT_SCORING, type ScoringConfig } from "../analytics/weights.js";
import { addDays, dayOf, type IsoDay } from "../analytics/windows.js";
import { currentPrices, observePrices, type PriceSighting } from "../catalog/price-runs.js";
import {
  type GameRecord as GameLine,
  parseLine,
  type RedirectRecord,
  type SearchRecord,
  type WatchRecord,
} from "../import/parse-line.js";
import { MOCK_WORLD_VERSION, type MockPriceObservation, type MockSnapshot, type MockWorld } from "./types.js";

/**
 * A mock world computed from the NDJSON `gmi import` reads (docs/data-format.md), by the server's
 * rules: the lines parsed by the import's own parser, the events aggregated per period window as
 * the rollup aggregates its daily cells (apps/server/src/rollup: counts in the window, distinct
 * users over the whole window, alerts active at any moment of it, a search in the all-consoles scope
 * and in its console's), then scored, ranked and rounded by the rollup's functions. Lines the
 * import would refuse are skipped; events are kept once by their key (event id, else content).
 */
export const worldFromEvents = (
  lines: Iterable<string>,
  options: {
    /** The dates to roll up (every period). */
    dates: readonly IsoDay[];
    scoring?: ScoringConfig;
    /** When game lines without `observed_at` were seen (the import's instant; default: the end of the last date). */
    importedAt?: string;
  },
): MockWorld => {
  const scoring = options.scoring ?? DEFAULT_SCORING;
  const consoles = new Map<number, { name: string; slug: string }>();
  const games = new Map<number, GameLine>();
  const sightings: PriceSighting[] = [];
  const redirects: RedirectRecord[] = [];
  const watches = new Map<string, WatchRecord>();
  const searches: SearchRecord[] = [];
  const seen = new Set<string>();
  const importedAt =
    options.importedAt ?? `${[...options.dates].sort().at(-1) ?? "1970-01-01"}T23:59:59.999Z`;
  let n = 0;
  for (const text of lines) {
    n += 1;
    const parsed = parseLine(text, n);
    if (parsed.kind !== "record") continue;
    const record = parsed.record;
    if (record.type === "console") consoles.set(record.id, { name: record.name, slug: record.slug });
    else if (record.type === "game") {
      games.set(record.id, record);
      sightings.push({ gameId: record.id, at: record.observedAt ?? importedAt, prices: record.prices });
    } else if (record.type === "watch") {
      // An alert's key leaves out `removed_at`: a later line of it records its removal.
      const { removedAt: _removed, ...keyed } = record;
      const key =
        record.eventId === null ? JSON.stringify({ ...keyed, eventId: null }) : `w${record.eventId}`;
      watches.set(key, {
        ...(watches.get(key) ?? record),
        removedAt: record.removedAt ?? watches.get(key)?.removedAt ?? null,
      });
    } else {
      const key = record.eventId === null ? JSON.stringify(record) : `${record.type[0]}${record.eventId}`;
      if (seen.has(key)) continue;
      seen.add(key);
      if (record.type === "redirect") redirects.push(record);
      else searches.push(record);
    }
  }

  // The catalog's price runs, as the import keeps them (catalog/price-runs.ts).
  const runs = observePrices(new Map(), sightings);
  const enabled = [...games.values()]
    .filter((g) => g.enabled && consoles.has(g.consoleId))
    .sort((a, b) => a.id - b.id);
  const records: GameRecord[] = enabled.map((g) => {
    const c = consoles.get(g.consoleId) as { name: string; slug: string };
    const latest = currentPrices(runs.get(g.id) ?? []);
    return {
      id: g.id,
      display_game_name: g.displayGameName,
      marketplace_game_name: g.marketplaceGameName,
      console_id: g.consoleId,
      console_name: c.name,
      console_slug: c.slug,
      prices: latest,
    };
  });
  const consoleRecords: ConsoleRecord[] = [...consoles]
    .sort(([a], [b]) => a - b)
    .map(([id, c]) => ({
      id,
      name: c.name,
      slug: c.slug,
      game_count: records.filter((g) => g.console_id === id).length,
    }));
  const consoleOf = new Map([...games.values()].map((g) => [g.id, g.consoleId]));
  const eventDays = new Set([...redirects.map((r) => r.day), ...searches.map((s) => s.day)]);

  const snapshots: MockSnapshot[] = [];
  for (const date of options.dates) {
    for (const period of PERIODS) {
      const snapshot = rollUp(period, date, {
        records,
        redirects,
        watches: [...watches.values()],
        searches,
        consoleOf,
        scoring,
      });
      snapshots.push({ ...snapshot, dayHasEvents: eventDays.has(date) });
    }
  }
  const prices: Record<string, MockPriceObservation[]> = {};
  for (const g of records) {
    const list = (runs.get(g.id) ?? []).map((run) => ({ day: dayOf(run.observedAt), prices: run.prices }));
    if (list.length > 0) prices[String(g.id)] = list;
  }
  return {
    version: MOCK_WORLD_VERSION,
    scoring,
    catalog: { consoles: consoleRecords, games: records, prices },
    snapshots,
  };
};

type Events = {
  records: GameRecord[];
  redirects: RedirectRecord[];
  watches: WatchRecord[];
  searches: SearchRecord[];
  consoleOf: Map<number, number>;
  scoring: ScoringConfig;
};

const windowOf = (period: Period, date: IsoDay) => ({
  start: addDays(date, 1 - PERIOD_DAYS[period]),
  end: date,
});
const within = (day: IsoDay, w: { start: IsoDay; end: IsoDay }) => day >= w.start && day <= w.end;

/** One (period, date) snapshot's rows from the events. */
const rollUp = (period: Period, date: IsoDay, events: Events): Omit<MockSnapshot, "dayHasEvents"> => {
  const w = windowOf(period, date);
  const w7 = windowOf("7d", date);
  const w30 = windowOf("30d", date);
  const count = <K>(map: Map<K, number>, key: K, by = 1) => map.set(key, (map.get(key) ?? 0) + by);
  const users = <K>(map: Map<K, Set<string>>, key: K, user: string) => {
    const set = map.get(key) ?? new Set<string>();
    map.set(key, set);
    set.add(user);
  };

  // Games: redirects, their users, alerts active in the window, searches resolved to the game.
  const redirects = new Map<number, number>();
  const redirectUsers = new Map<number, Set<string>>();
  const r7 = new Map<number, number>();
  const r30 = new Map<number, number>();
  const conditionRedirects = new Map<string, number>();
  for (const r of events.redirects) {
    if (within(r.day, w)) {
      count(redirects, r.gameId);
      users(redirectUsers, r.gameId, r.userId);
      if (r.condition) count(conditionRedirects, `${r.gameId}|${r.condition}`);
    }
    if (within(r.day, w7)) count(r7, r.gameId);
    if (within(r.day, w30)) count(r30, r.gameId);
  }
  const alerts = new Map<number, number>();
  const conditionAlerts = new Map<string, number>();
  for (const a of events.watches) {
    const created = dayOf(a.createdAt);
    const removed = a.removedAt === null ? null : dayOf(a.removedAt);
    if (created > date || (removed !== null && removed < w.start)) continue;
    count(alerts, a.gameId);
    if (a.condition) count(conditionAlerts, `${a.gameId}|${a.condition}`);
  }
  const gameSearches = new Map<number, number>();
  const conditionSearches = new Map<string, { n: number; mobile: number; users: Set<string> }>();
  const queries = new Map<string, QueryAggregate & { users: Set<string> }>();
  for (const s of events.searches) {
    const inWindow = within(s.day, w);
    if (inWindow && s.gameId !== null) count(gameSearches, s.gameId);
    if (inWindow && s.condition !== null) {
      for (const gameId of s.gameId === null ? [MARKET_WIDE] : [MARKET_WIDE, s.gameId]) {
        const key = `${gameId}|${s.condition}`;
        const entry = conditionSearches.get(key) ?? { n: 0, mobile: 0, users: new Set<string>() };
        conditionSearches.set(key, entry);
        entry.n += 1;
        if (s.device === "mobile") entry.mobile += 1;
        entry.users.add(s.userId);
      }
    }
    const console = s.consoleId ?? (s.gameId === null ? null : (events.consoleOf.get(s.gameId) ?? null));
    for (const scope of console === null ? [0] : [0, console]) {
      const key = `${scope}|${s.query}`;
      let q = queries.get(key);
      if (!q) {
        q = {
          scopeConsoleId: scope,
          query: s.query,
          searchCount: 0,
          pricingCount: 0,
          siteSearchCount: 0,
          distinctUsers: 0,
          mobileCount: 0,
          resultCountSum: 0,
          zeroResultCount: 0,
          searches7d: 0,
          searches30d: 0,
          users: new Set(),
        };
        queries.set(key, q);
      }
      if (within(s.day, w7)) q.searches7d += 1;
      if (within(s.day, w30)) q.searches30d += 1;
      if (!inWindow) continue;
      q.searchCount += 1;
      if (s.source === "pricing") q.pricingCount += 1;
      else q.siteSearchCount += 1;
      if (s.device === "mobile") q.mobileCount += 1;
      q.resultCountSum += s.resultCount;
      if (s.resultCount === 0) q.zeroResultCount += 1;
      q.users.add(s.userId);
    }
  }

  const aggregates: GameAggregate[] = events.records.map((g) => ({
    gameId: g.id,
    consoleId: g.console_id,
    redirects: redirects.get(g.id) ?? 0,
    distinctUsers: redirectUsers.get(g.id)?.size ?? 0,
    watchCount: alerts.get(g.id) ?? 0,
    searchCount: gameSearches.get(g.id) ?? 0,
    redirects7d: r7.get(g.id) ?? 0,
    redirects30d: r30.get(g.id) ?? 0,
    priceComplete: g.prices.complete === null ? null : Number(g.prices.complete),
  }));

  // Conditions: a game (or the market, 0) with any condition activity in the window gets its four rows.
  const conditions = new Map<number, Map<string, ConditionAggregate>>([[MARKET_WIDE, new Map()]]);
  const entry = (gameId: number, condition: string) => {
    const byCondition = conditions.get(gameId) ?? new Map<string, ConditionAggregate>();
    conditions.set(gameId, byCondition);
    const found = byCondition.get(condition) ?? {
      condition: condition as ConditionAggregate["condition"],
      searchCount: 0,
      distinctUsers: 0,
      mobileCount: 0,
    };
    byCondition.set(condition, found);
    return found;
  };
  for (const [key, s] of conditionSearches) {
    const [game = "0", condition = ""] = key.split("|");
    const aggregate = entry(Number(game), condition);
    aggregate.searchCount = s.n;
    aggregate.distinctUsers = s.users.size;
    aggregate.mobileCount = s.mobile;
  }
  for (const [key, n] of conditionRedirects) {
    const [game = "0", condition = ""] = key.split("|");
    entry(Number(game), condition).redirects = n;
  }
  for (const [key, n] of conditionAlerts) {
    const [game = "0", condition = ""] = key.split("|");
    entry(Number(game), condition).watchCount = n;
  }

  return {
    period,
    date,
    liquidity: buildLiquidityRows(aggregates, events.scoring),
    searches: buildSearchRows(
      [...queries.values()]
        .filter((q) => q.searchCount > 0)
        .map(({ users: set, ...q }) => ({ ...q, distinctUsers: set.size })),
      events.scoring,
    ),
    conditions: [...conditions]
      .sort(([a], [b]) => a - b)
      .flatMap(([gameId, byCondition]) => buildConditionRows(gameId, [...byCondition.values()])),
  };
};

export type { Pricing };
