import { type DemandMaxima, demandIndex, demandMaxima } from "./demand-index.js";
import type { MomentumLabel } from "./momentum.js";
import { momentum } from "./momentum.js";
import { asc, desc, nullsLast, rankBy } from "./ranking.js";
import { round4, roundScore } from "./rounding.js";
import type { LiquiditySnapshotRow, Narrowed } from "./rows.js";
import type { ScoringConfig } from "./weights.js";

/** `scope_console_id` of the all-consoles scope. */
export const ALL_CONSOLES = 0;

/**
 * What the data layer aggregates for one enabled game and one period ending on D. Counts are over the
 * period window unless named otherwise; `distinctUsers` is COUNT(DISTINCT user_id) over the whole
 * window (not a sum of days); `watchCount` counts alerts active at any moment of the window
 * (`isWatchActive`). Pass every enabled game, zero-demand ones included: they are the population the
 * normalizers run over, and their rows are the profiles of games that are not on the leaderboard.
 */
export type GameAggregate = {
  gameId: number;
  consoleId: number;
  redirects: number;
  distinctUsers: number;
  watchCount: number;
  /** Searches resolved to this game (`game_id`) in the window. */
  searchCount: number;
  /** Redirects in D-6..D and D-29..D, whatever the period. */
  redirects7d: number;
  redirects30d: number;
  /** Complete-in-box catalog price in currency units; null when the catalog has none. */
  priceComplete: number | null;
};

/** One `liquidity_snapshot_rows` row, as declared (db/tables/snapshot-rows.ts), its label one of four. */
export type LiquiditySnapshotFields = Narrowed<LiquiditySnapshotRow, { momentumLabel: MomentumLabel }>;

/** Accessibility of a title without a complete price: neither cheap nor dear. */
export const NO_PRICE_ACCESSIBILITY = 0.5;

/**
 * 1 − complete / max_complete, unrounded. Prices are never negative; when every priced game of the
 * scope is free (max 0) they are all fully accessible.
 */
export const priceAccessibility = (priceComplete: number | null, maxComplete: number): number => {
  if (priceComplete === null) return NO_PRICE_ACCESSIBILITY;
  return maxComplete > 0 ? 1 - priceComplete / maxComplete : 1;
};

type Scored = { game: GameAggregate; row: LiquiditySnapshotFields };

/** Ranks compare the published (rounded) figures, so equal-looking rows fall to the documented keys. */
const byLiquidity = (a: Scored, b: Scored) =>
  desc(a.row.liquidityScore, b.row.liquidityScore) ||
  desc(a.row.demandIndex, b.row.demandIndex) ||
  desc(a.row.redirects, b.row.redirects) ||
  asc(a.row.gameId, b.row.gameId);

const byDemand = (a: Scored, b: Scored) =>
  desc(a.row.demandIndex, b.row.demandIndex) ||
  desc(a.row.redirects, b.row.redirects) ||
  desc(a.row.distinctUsers, b.row.distinctUsers) ||
  asc(a.row.gameId, b.row.gameId);

const byValue = (a: Scored, b: Scored) =>
  nullsLast(desc)(a.game.priceComplete, b.game.priceComplete) ||
  desc(a.row.liquidityScore, b.row.liquidityScore) ||
  desc(a.row.demandIndex, b.row.demandIndex) ||
  asc(a.row.gameId, b.row.gameId);

type ScopeScale = { maxima: DemandMaxima; maxComplete: number };

/**
 * One game's row against its scope's normalizers (the largest signals and complete price of the
 * scope's population), unranked: the one place the liquidity score is computed.
 */
export const scoreGame = (
  scopeConsoleId: number,
  game: GameAggregate,
  scale: ScopeScale,
  config: Pick<ScoringConfig, "demandWeights" | "liquidityWeight">,
): LiquiditySnapshotFields => {
  const index = demandIndex(game, scale.maxima, config.demandWeights);
  const access = priceAccessibility(game.priceComplete, scale.maxComplete);
  const m = momentum({ recent7d: game.redirects7d, last30d: game.redirects30d });
  const w = config.liquidityWeight;
  return {
    scopeConsoleId,
    gameId: game.gameId,
    redirects: game.redirects,
    distinctUsers: game.distinctUsers,
    watchCount: game.watchCount,
    searchCount: game.searchCount,
    demandIndex: round4(index),
    momentumValue: m.value,
    momentumLabel: m.label,
    priceAccessibility: round4(access),
    liquidityScore: roundScore(100 * (w * index + (1 - w) * access)),
    rankLiquidity: null,
    rankDemand: null,
    rankValue: null,
  };
};

/**
 * The all-consoles row of an enabled game with no activity in the period (enabled after the
 * snapshot was computed): zero demand, scored like any other game against the scope's highest
 * complete price, not on the leaderboard.
 */
export const zeroDemandFields = (
  gameId: number,
  priceComplete: number | null,
  maxComplete: number,
  config: Pick<ScoringConfig, "demandWeights" | "liquidityWeight">,
): LiquiditySnapshotFields =>
  scoreGame(
    ALL_CONSOLES,
    {
      gameId,
      consoleId: ALL_CONSOLES,
      redirects: 0,
      distinctUsers: 0,
      watchCount: 0,
      searchCount: 0,
      redirects7d: 0,
      redirects30d: 0,
      priceComplete,
    },
    // No signal of its own: its demand terms are 0 whatever the scope's maxima.
    { maxima: { redirects: 0, distinctUsers: 0, watchCount: 0 }, maxComplete },
    config,
  );

/**
 * Scores one scope: every game passed gets a row; the normalizers (max redirects, users, alerts and
 * complete price) are taken over all of them; only games with at least one redirect are ranked.
 */
export const scoreLiquidityScope = (
  scopeConsoleId: number,
  games: readonly GameAggregate[],
  config: Pick<ScoringConfig, "demandWeights" | "liquidityWeight">,
): LiquiditySnapshotFields[] => {
  const scale = {
    maxima: demandMaxima(games),
    maxComplete: games.reduce((max, g) => Math.max(max, g.priceComplete ?? 0), 0),
  };
  const scored: Scored[] = games.map((game) => ({
    game,
    row: scoreGame(scopeConsoleId, game, scale, config),
  }));
  const onBoard = (s: Scored) => s.row.redirects > 0;
  const liquidityRank = rankBy(scored, onBoard, byLiquidity);
  const demandRank = rankBy(scored, onBoard, byDemand);
  const valueRank = rankBy(scored, onBoard, byValue);
  return scored
    .map((s) => ({
      ...s.row,
      rankLiquidity: liquidityRank(s),
      rankDemand: demandRank(s),
      rankValue: valueRank(s),
    }))
    .sort((a, b) => asc(a.gameId, b.gameId));
};

/**
 * Every scope of a snapshot: all consoles (scope 0) and one scope per console that has an enabled
 * game. `games` must be the enabled games only (a disabled game is not in the population).
 */
export const buildLiquidityRows = (
  games: readonly GameAggregate[],
  config: Pick<ScoringConfig, "demandWeights" | "liquidityWeight">,
): LiquiditySnapshotFields[] => {
  const ids = new Set(games.map((g) => g.gameId));
  if (ids.size !== games.length) throw new RangeError("each game must appear once in the aggregates");
  const consoles = [...new Set(games.map((g) => g.consoleId))].sort(asc);
  return [
    ...scoreLiquidityScope(ALL_CONSOLES, games, config),
    ...consoles.flatMap((consoleId) =>
      scoreLiquidityScope(
        consoleId,
        games.filter((g) => g.consoleId === consoleId),
        config,
      ),
    ),
  ];
};

/** A scope's rows in the order of one sort, leaderboard games only (what a page reads). */
export const leaderboardOrder = (
  rows: readonly LiquiditySnapshotFields[],
  sort: "liquidity" | "demand" | "value",
): LiquiditySnapshotFields[] => {
  const key = { liquidity: "rankLiquidity", demand: "rankDemand", value: "rankValue" } as const;
  const rank = (r: LiquiditySnapshotFields) => r[key[sort]];
  return rows.filter((r) => rank(r) !== null).sort((a, b) => nullsLast(asc)(rank(a), rank(b)));
};
