import type { MomentumLabel } from "./momentum.js";
import { momentum } from "./momentum.js";
import type { Compare } from "./ranking.js";
import { asc, byCodeUnits, desc, rankBy } from "./ranking.js";
import { ratio, round4, roundScore } from "./rounding.js";
import type { ScoringConfig } from "./weights.js";

/**
 * What the data layer aggregates for one normalized query within one scope over the period window.
 * A search belongs to the all-consoles scope (0) and to one console scope: its `console_id`, or its
 * game's console when `console_id` is null, or none when both are null. Only queries with at least
 * one search in the window are passed (a query with zero searches has no row).
 */
export type QueryAggregate = {
  scopeConsoleId: number;
  query: string;
  searchCount: number;
  /** `source` = pricing and site; they add up to `searchCount`. */
  pricingCount: number;
  siteSearchCount: number;
  /** COUNT(DISTINCT user_id) over the whole window within the scope. */
  distinctUsers: number;
  /** Searches from `device` = mobile. */
  mobileCount: number;
  /** SUM(result_count). */
  resultCountSum: number;
  zeroResultCount: number;
  /** Searches of this query in this scope in D-6..D and D-29..D, whatever the period. */
  searches7d: number;
  searches30d: number;
};

/** One `search_snapshot_rows` row without its `snapshot_id`: the Prisma model's fields, 1:1. */
export type SearchSnapshotFields = {
  scopeConsoleId: number;
  query: string;
  searchCount: number;
  pricingCount: number;
  siteSearchCount: number;
  distinctUsers: number;
  mobileShare: number;
  avgResultCount: number;
  zeroResultCount: number;
  zeroResultShare: number;
  momentumValue: number | null;
  momentumLabel: MomentumLabel;
  demandScore: number;
  rankVolume: number;
  /** Null without a 30-day baseline (excluded from trending). */
  rankMomentum: number | null;
  /** Null below the unmet minimum search count. */
  rankUnmet: number | null;
};

/** Volume is the primary signal of the search demand score, reach the secondary; no watch term. */
export const SEARCH_VOLUME_WEIGHT = 0.8;
export const SEARCH_REACH_WEIGHT = 0.2;

type Row = Omit<SearchSnapshotFields, "rankVolume" | "rankMomentum" | "rankUnmet">;

const byVolume: Compare<Pick<Row, "searchCount" | "distinctUsers" | "query">> = (a, b) =>
  desc(a.searchCount, b.searchCount) ||
  desc(a.distinctUsers, b.distinctUsers) ||
  byCodeUnits(a.query, b.query);

const byMomentum: Compare<Row> = (a, b) => desc(a.momentumValue ?? 0, b.momentumValue ?? 0) || byVolume(a, b);

const byUnmet: Compare<Row> = (a, b) =>
  desc(a.zeroResultShare, b.zeroResultShare) ||
  desc(a.searchCount, b.searchCount) ||
  byCodeUnits(a.query, b.query);

/**
 * Scores the queries of one scope. demand_score = 100 · raw / raw_top, where
 * raw = 0.8·count/max_count + 0.2·users/max_users and raw_top is the raw of the top query by volume:
 * that query scores exactly 100, the score never decreases when count or users grow, and a query
 * whose reach lifts its raw above the top's is clamped to 100.
 */
export const scoreSearchScope = (
  scopeConsoleId: number,
  queries: readonly QueryAggregate[],
  config: Pick<ScoringConfig, "unmetMinSearches">,
): SearchSnapshotFields[] => {
  const admitted = queries.filter((q) => q.searchCount > 0);
  let top = admitted[0];
  let maxUsers = 0;
  for (const q of admitted) {
    if (top !== undefined && byVolume(q, top) < 0) top = q;
    maxUsers = Math.max(maxUsers, q.distinctUsers);
  }
  if (top === undefined) return [];
  const maxCount = top.searchCount;
  const raw = (q: QueryAggregate) =>
    SEARCH_VOLUME_WEIGHT * ratio(q.searchCount, maxCount) +
    SEARCH_REACH_WEIGHT * ratio(q.distinctUsers, maxUsers);
  const rawTop = raw(top);
  const rows: Row[] = admitted.map((q) => {
    const m = momentum({ recent7d: q.searches7d, baseline30d: q.searches30d });
    return {
      scopeConsoleId,
      query: q.query,
      searchCount: q.searchCount,
      pricingCount: q.pricingCount,
      siteSearchCount: q.siteSearchCount,
      distinctUsers: q.distinctUsers,
      mobileShare: round4(ratio(q.mobileCount, q.searchCount)),
      avgResultCount: round4(ratio(q.resultCountSum, q.searchCount)),
      zeroResultCount: q.zeroResultCount,
      zeroResultShare: round4(ratio(q.zeroResultCount, q.searchCount)),
      momentumValue: m.value,
      momentumLabel: m.label,
      demandScore: roundScore((100 * raw(q)) / rawTop),
    };
  });
  // Sorted once by volume, the order the rows are returned in: the volume rank is the position.
  rows.sort(byVolume);
  const momentumRank = rankBy(rows, (r) => r.momentumValue !== null, byMomentum);
  const unmetRank = rankBy(rows, (r) => r.searchCount >= config.unmetMinSearches, byUnmet);
  return rows.map((r, index) => ({
    ...r,
    rankVolume: index + 1,
    rankMomentum: momentumRank(r),
    rankUnmet: unmetRank(r),
  }));
};

/** Every scope present in the aggregates, scope by scope (ascending scope id, then volume rank). */
export const buildSearchRows = (
  queries: readonly QueryAggregate[],
  config: Pick<ScoringConfig, "unmetMinSearches">,
): SearchSnapshotFields[] => {
  const scopes = new Map<number, QueryAggregate[]>();
  for (const q of queries) {
    const scope = scopes.get(q.scopeConsoleId) ?? [];
    scope.push(q);
    scopes.set(q.scopeConsoleId, scope);
  }
  return [...scopes.keys()].sort(asc).flatMap((scopeConsoleId) => {
    const scope = scopes.get(scopeConsoleId) ?? [];
    if (new Set(scope.map((q) => q.query)).size !== scope.length) {
      throw new RangeError(`a query appears twice in scope ${scopeConsoleId}`);
    }
    return scoreSearchScope(scopeConsoleId, scope, config);
  });
};

/**
 * The console scope a search counts in besides the all-consoles one: its own `console_id` (the
 * searcher's explicit choice) first, else the console of the game it resolved to, else none.
 */
export const searchConsoleScope = (
  search: { consoleId: number | null; gameId: number | null },
  consoleOfGame: (gameId: number) => number | undefined,
): number | null =>
  search.consoleId ?? (search.gameId === null ? null : (consoleOfGame(search.gameId) ?? null));
