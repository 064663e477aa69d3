import type { ConsoleRecord, GameRecord, Period, Pricing } from "@gmi/contract";
import type { ConditionSnapshotRow, LiquiditySnapshotRow, SearchSnapshotRow } from "../analytics/rows.js";
import type { ScoringConfig } from "../analytics/weights.js";
import type { IsoDay } from "../analytics/windows.js";

export const MOCK_WORLD_VERSION = 1;

/**
 * What the mocks serve, as plain JSON: the catalog and, for each rolled-up (period, date), the
 * snapshot rows the server stores and serves (docs/internals/mock-world.md). Every GET answer is
 * computed from it by the server's own rules (world/reads.ts): ranks, scores and shares are read as
 * stored, pages, links, cursors, defaults and 404/422s are computed. `gmi export-mock-world` writes
 * one from a real database; `worldFromEvents` computes one from `gmi import`'s NDJSON.
 */
export type MockWorld = {
  version: typeof MOCK_WORLD_VERSION;
  /** The scoring the snapshots were computed with: it scores a game a snapshot has no row for. */
  scoring: ScoringConfig;
  catalog: MockCatalog;
  /** Any order; at most one per (period, date). */
  snapshots: MockSnapshot[];
};

export type MockCatalog = {
  consoles: ConsoleRecord[];
  /** Enabled games only: a disabled game is absent from every answer. */
  games: GameRecord[];
  /**
   * Each game's price observations (key: its id), oldest first, dated by the UTC day they began:
   * the history's prices. A game without any holds its catalog price on every day.
   */
  prices?: Record<string, MockPriceObservation[]>;
};

export type MockPriceObservation = { day: IsoDay; prices: Pricing };

export type MockSnapshot = {
  period: Period;
  date: IsoDay;
  /** The day itself had a redirect or a search: only such a date is a default (docs/internals/reads.md). */
  dayHasEvents: boolean;
  /** Per scope (0 = all consoles) and game: the `liquidity_snapshot_rows`. */
  liquidity: LiquiditySnapshotRow[];
  /** Per scope and normalized query: the `search_snapshot_rows`. */
  searches: SearchSnapshotRow[];
  /** Per game (0 = market-wide) and condition: the `condition_snapshot_rows`; none = no activity. */
  conditions: ConditionSnapshotRow[];
};
