import type { MomentumLabel } from "./momentum.js";
import { momentum } from "./momentum.js";
import { asc, byCodeUnits, stableSortDescBy } from "./ranking.js";
import { ratio, round4, roundScore } from "./rounding.js";
import type { Narrowed, SearchSnapshotRow } from "./rows.js";
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

/** One `search_snapshot_rows` row, as declared (db/tables/snapshot-rows.ts), its label one of four. */
export type SearchSnapshotFields = Narrowed<SearchSnapshotRow, { momentumLabel: MomentumLabel }>;

/** Volume is the primary signal of the search demand score, reach the secondary; no watch term. */
export const SEARCH_VOLUME_WEIGHT = 0.8;
export const SEARCH_REACH_WEIGHT = 0.2;

type Row = SearchSnapshotFields;

/**
 * The three orders, written out for the reader (docs/scoring.md):
 * - volume: search count desc, distinct users desc, query asc;
 * - momentum: momentum value desc (null last), search count desc, query asc;
 * - unmet: zero-result share desc, search count desc, query asc.
 * Every one ends on the query, unique within a scope, so ranks are total and stable. They are
 * computed below as stable sorts on numeric keys over a list already in query order, the least
 * significant key first, which gives the same orders while comparing each string pair at most once
 * per scope: at 100k queries a period, most of them one-off searches that tie on every count, the
 * string comparisons were most of a rollup's scoring time. The numeric sorts bucket equal keys
 * (`stableSortDescBy`): those keys take few distinct values.
 */
const byQuery = (a: Row, b: Row) => byCodeUnits(a.query, b.query);
const volumeOrder = (rows: readonly Row[]) =>
  stableSortDescBy(
    stableSortDescBy(rows, (r) => r.distinctUsers),
    (r) => r.searchCount,
  );
/** Every row: `/trending` is the same order without its null tail (reads/lists.ts, trendingList). */
const momentumOrder = (rows: readonly Row[]) =>
  stableSortDescBy(
    stableSortDescBy(rows, (r) => r.searchCount),
    (r) => r.momentumValue ?? Number.NEGATIVE_INFINITY,
  );
const unmetOrder = (rows: readonly Row[], minSearches: number) =>
  stableSortDescBy(
    stableSortDescBy(
      rows.filter((r) => r.searchCount >= minSearches),
      (r) => r.searchCount,
    ),
    (r) => r.zeroResultShare,
  );

/** Sets `rank` 1..n in the order of `ordered`. */
const assignRanks = (ordered: readonly Row[], set: (row: Row, rank: number) => void) => {
  for (let i = 0; i < ordered.length; i++) set(ordered[i] as Row, i + 1);
};

/**
 * Scores the queries of one scope. demand_score = 100 · raw / raw_top, where
 * raw = 0.8·count/max_count + 0.2·users/max_users and raw_top is the raw of the top query by volume:
 * that query scores exactly 100, the score never decreases when count or users grow, and a query
 * whose reach lifts its raw above the top's is clamped to 100. Returns the rows in volume order.
 */
export const scoreSearchScope = (
  scopeConsoleId: number,
  queries: readonly QueryAggregate[],
  config: Pick<ScoringConfig, "unmetMinSearches">,
): SearchSnapshotFields[] => {
  const admitted = queries.filter((q) => q.searchCount > 0);
  if (admitted.length === 0) return [];
  let maxCount = 0;
  let maxUsers = 0;
  for (const q of admitted) {
    maxCount = Math.max(maxCount, q.searchCount);
    maxUsers = Math.max(maxUsers, q.distinctUsers);
  }
  const raw = (q: { searchCount: number; distinctUsers: number }) =>
    SEARCH_VOLUME_WEIGHT * ratio(q.searchCount, maxCount) +
    SEARCH_REACH_WEIGHT * ratio(q.distinctUsers, maxUsers);
  const rows: Row[] = admitted.map((q) => {
    const m = momentum({ recent7d: q.searches7d, last30d: q.searches30d });
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
      demandScore: 0,
      rankVolume: 0,
      rankMomentum: null,
      rankUnmet: null,
      mobileCount: q.mobileCount,
      resultCountSum: q.resultCountSum,
    };
  });
  // Nearly linear when the caller passes the queries in code-unit order already.
  rows.sort(byQuery);
  for (let i = 1; i < rows.length; i++) {
    if ((rows[i] as Row).query === (rows[i - 1] as Row).query) {
      throw new RangeError(`a query appears twice in scope ${scopeConsoleId}`);
    }
  }
  const unmet = unmetOrder(rows, config.unmetMinSearches);
  const volume = volumeOrder(rows);
  const byMomentum = momentumOrder(rows);
  assignRanks(volume, (r, rank) => {
    r.rankVolume = rank;
  });
  assignRanks(byMomentum, (r, rank) => {
    r.rankMomentum = rank;
  });
  assignRanks(unmet, (r, rank) => {
    r.rankUnmet = rank;
  });
  const rawTop = raw(volume[0] as Row);
  for (const r of volume) r.demandScore = roundScore((100 * raw(r)) / rawTop);
  return volume;
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
  return [...scopes.keys()]
    .sort(asc)
    .flatMap((scopeConsoleId) => scoreSearchScope(scopeConsoleId, scopes.get(scopeConsoleId) ?? [], config));
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
