import type {
  BatchLiquidityRow,
  ConditionRecommendation,
  GameConditionRow,
  GameSignals,
  LiquidityProfile,
  SearchConditionRow,
} from "@gmi/contract";
import {
  type GameInfo,
  maxCompletePrice,
  readConditionRows,
  readGameInfo,
  readProfiles,
} from "../data/analytics-reads.js";
import type { SnapshotRef } from "../data/snapshots.js";
import type { Sql } from "../data/sql.js";
import { buildConditionRows, MARKET_WIDE } from "../domain/analytics/conditions.js";
import { zeroDemandFields } from "../domain/analytics/liquidity.js";
import {
  type ListingCondition,
  recommendListingCondition,
} from "../domain/analytics/listing-recommendation.js";
import {
  type StoredConditionRow,
  type StoredLiquidityRow,
  toBatchLiquidityRow,
  toConditionRecommendation,
  toGameConditionRows,
  toGameSignals,
  toLiquidityProfile,
  toPricing,
  toSearchConditionRows,
} from "../domain/analytics/to-contract.js";
import type { ScoringConfig } from "../domain/analytics/weights.js";
import { notFound } from "../errors.js";

type ProfileSource = { row: StoredLiquidityRow | null; game: GameInfo };

/**
 * A game enabled after the snapshot was computed has no row in it: it resolves all the same, with
 * zero demand, scored against the current highest complete price (docs/decisions.md), by the
 * snapshot's own scoring (domain/analytics/liquidity.ts).
 */
export const zeroDemandRow = (
  game: GameInfo,
  maxComplete: number,
  scoring: ScoringConfig,
): StoredLiquidityRow =>
  zeroDemandFields(
    game.identity.id,
    game.prices.complete === null ? null : Number(game.prices.complete),
    maxComplete,
    scoring,
  );

/** The all-consoles rows of many games at once; a missing key = unknown or disabled game. */
export const loadProfiles = async (
  sql: Sql,
  snapshot: SnapshotRef,
  gameIds: readonly number[],
  scoring: ScoringConfig,
): Promise<Map<number, { row: StoredLiquidityRow; game: GameInfo }>> => {
  const found = await readProfiles(sql, snapshot.id, gameIds);
  const missing = [...found.values()].some((p) => p.row === null);
  const maxComplete = missing ? await maxCompletePrice(sql) : 0;
  return new Map(
    [...found].map(([id, p]: [number, ProfileSource]) => [
      id,
      { row: p.row ?? zeroDemandRow(p.game, maxComplete, scoring), game: p.game },
    ]),
  );
};

export const profileOf = async (
  sql: Sql,
  snapshot: SnapshotRef,
  gameId: number,
  scoring: ScoringConfig,
): Promise<LiquidityProfile> => {
  const profile = (await loadProfiles(sql, snapshot, [gameId], scoring)).get(gameId);
  if (!profile) throw notFound("game", gameId);
  return toLiquidityProfile(profile.row, profile.game.identity, toPricing(profile.game.prices));
};

export const batchRowOf = (profile: { row: StoredLiquidityRow; game: GameInfo }): BatchLiquidityRow =>
  toBatchLiquidityRow(profile.row, profile.game.identity, toPricing(profile.game.prices));

export const signalsOf = (profile: { row: StoredLiquidityRow; game: GameInfo }): GameSignals =>
  toGameSignals(profile.row, profile.game.identity);

/** Stored rows, or the four zeroed rows of a game without condition activity in the period. */
const conditionRows = async (
  sql: Sql,
  snapshot: SnapshotRef,
  gameId: number,
): Promise<StoredConditionRow[]> => {
  const stored = await readConditionRows(sql, snapshot.id, gameId);
  return stored.length > 0 ? stored : buildConditionRows(gameId, []);
};

export const marketConditions = async (sql: Sql, snapshot: SnapshotRef): Promise<SearchConditionRow[]> =>
  toSearchConditionRows(await conditionRows(sql, snapshot, MARKET_WIDE));

const enabledGame = async (sql: Sql, gameId: number): Promise<GameInfo> => {
  const game = await readGameInfo(sql, gameId);
  if (!game) throw notFound("game", gameId);
  return game;
};

export const gameConditions = async (
  sql: Sql,
  snapshot: SnapshotRef,
  gameId: number,
): Promise<{ game: GameInfo; rows: GameConditionRow[] }> => {
  const game = await enabledGame(sql, gameId);
  return { game, rows: toGameConditionRows(await conditionRows(sql, snapshot, gameId)) };
};

const PRICE_OF: Record<ListingCondition, keyof GameInfo["prices"]> = {
  loose: "loose",
  cib: "complete",
  new: "new",
};

export const listingRecommendation = async (
  sql: Sql,
  snapshot: SnapshotRef,
  gameId: number,
): Promise<ConditionRecommendation> => {
  const { game, rows } = await gameConditions(sql, snapshot, gameId);
  const input = (condition: ListingCondition) => {
    const row = rows.find((r) => r.condition === condition);
    const price = game.prices[PRICE_OF[condition]];
    return {
      price: price === null ? null : Number(price),
      redirects: row?.redirects ?? 0,
      watchCount: row?.watch_count ?? 0,
      searchCount: row?.search_count ?? 0,
    };
  };
  const recommendation = recommendListingCondition({
    loose: input("loose"),
    cib: input("cib"),
    new: input("new"),
  });
  return toConditionRecommendation(game.identity, recommendation);
};
