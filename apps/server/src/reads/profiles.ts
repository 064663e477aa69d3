import type {
  BatchLiquidityRow,
  ConditionRecommendation,
  GameConditionRow,
  GameSignals,
  LiquidityProfile,
  SearchConditionRow,
} from "@gmi/contract";
import { conditionRecommendation } from "@gmi/rules/analytics/to-contract";
import {
  type GameInfo,
  type ProfileSource,
  readGameConditions,
  readMarketConditions,
  readProfile,
  readProfiles,
} from "../data/analytics-reads.js";
import type { SnapshotAsked, SnapshotRef } from "../data/snapshots.js";
import type { Sql } from "../data/sql.js";
import { buildConditionRows, MARKET_WIDE } from "../domain/analytics/conditions.js";
import { zeroDemandFields } from "../domain/analytics/liquidity.js";
import {
  type StoredConditionRow,
  type StoredLiquidityRow,
  toBatchLiquidityRow,
  toGameConditionRows,
  toGameSignals,
  toLiquidityProfile,
  toPricing,
  toSearchConditionRows,
} from "../domain/analytics/to-contract.js";
import type { ScoringConfig } from "../domain/analytics/weights.js";
import { notFound } from "../errors.js";

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

/** A game's profile row: the stored one, or its zero-demand row scored by the read's normalizer. */
const withRow = (source: ProfileSource, scoring: ScoringConfig) => ({
  row: source.row ?? zeroDemandRow(source.game, source.maxComplete, scoring),
  game: source.game,
});

/** The all-consoles rows of many games at once (batches); a missing key = unknown or disabled game. */
export const loadProfiles = async (
  sql: Sql,
  snapshot: SnapshotRef,
  gameIds: readonly number[],
  scoring: ScoringConfig,
): Promise<Map<number, { row: StoredLiquidityRow; game: GameInfo }>> => {
  const found = await readProfiles(sql, snapshot.id, gameIds);
  return new Map([...found].map(([id, source]) => [id, withRow(source, scoring)]));
};

/** One game's profile in the snapshot asked (one statement); null: no such snapshot. */
export const profileOf = async (
  sql: Sql,
  asked: SnapshotAsked,
  gameId: number,
  scoring: ScoringConfig,
): Promise<{ snapshot: SnapshotRef; profile: LiquidityProfile } | null> => {
  const read = await readProfile(sql, asked, gameId);
  if (!read) return null;
  if (!read.profile) throw notFound("game", gameId);
  const { row, game } = withRow(read.profile, scoring);
  return { snapshot: read.snapshot, profile: toLiquidityProfile(row, game.identity, toPricing(game.prices)) };
};

export const batchRowOf = (profile: { row: StoredLiquidityRow; game: GameInfo }): BatchLiquidityRow =>
  toBatchLiquidityRow(profile.row, profile.game.identity, toPricing(profile.game.prices));

export const signalsOf = (profile: { row: StoredLiquidityRow; game: GameInfo }): GameSignals =>
  toGameSignals(profile.row, profile.game.identity);

/** Stored rows, or the four zeroed rows of a game without condition activity in the period. */
const conditionRows = (gameId: number, stored: StoredConditionRow[]): StoredConditionRow[] =>
  stored.length > 0 ? stored : buildConditionRows(gameId, []);

/** Market-wide demand by condition in the snapshot asked (one statement); null: no such snapshot. */
export const marketConditions = async (
  sql: Sql,
  asked: SnapshotAsked,
): Promise<{ snapshot: SnapshotRef; rows: SearchConditionRow[] } | null> => {
  const read = await readMarketConditions(sql, asked);
  if (!read) return null;
  return { snapshot: read.snapshot, rows: toSearchConditionRows(conditionRows(MARKET_WIDE, read.rows)) };
};

/** One game's demand by condition in the snapshot asked (one statement); null: no such snapshot. */
export const gameConditions = async (
  sql: Sql,
  asked: SnapshotAsked,
  gameId: number,
): Promise<{ snapshot: SnapshotRef; game: GameInfo; rows: GameConditionRow[] } | null> => {
  const read = await readGameConditions(sql, asked, gameId);
  if (!read) return null;
  if (!read.game) throw notFound("game", gameId);
  return {
    snapshot: read.snapshot,
    game: read.game,
    rows: toGameConditionRows(conditionRows(gameId, read.rows)),
  };
};

/** Which condition to list a game in, from its demand by condition (`gameConditions`). */
export const listingRecommendation = (game: GameInfo, rows: GameConditionRow[]): ConditionRecommendation =>
  conditionRecommendation(game.identity, game.prices, rows);
