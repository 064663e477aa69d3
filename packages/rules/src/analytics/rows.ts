/**
 * The rows of a rollup snapshot as the rules compute and read them: the fields of the server's
 * snapshot tables (apps/server/src/db/tables/snapshot-rows.ts declares the same columns;
 * apps/server/src/data/mock-world.ts checks at compile time that the two agree), in camelCase. A mock world holds these rows as they are.
 */

/** `liquidity_snapshot_rows`: one game in one scope (0 = all consoles). */
export type LiquiditySnapshotRow = {
  scopeConsoleId: number;
  gameId: number;
  redirects: number;
  distinctUsers: number;
  watchCount: number;
  searchCount: number;
  demandIndex: number;
  momentumValue: number | null;
  momentumLabel: string;
  priceAccessibility: number;
  liquidityScore: number;
  /** Null for a game without redirects in the window: it is not on the leaderboard. */
  rankLiquidity: number | null;
  rankDemand: number | null;
  rankValue: number | null;
};

/** `search_snapshot_rows`: one normalized query in one scope. */
export type SearchSnapshotRow = {
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
  momentumLabel: string;
  demandScore: number;
  rankVolume: number;
  rankMomentum: number | null;
  rankUnmet: number | null;
  /** The raw sums behind the rounded shares (the next date's slide); null in old rows. */
  mobileCount: number | null;
  resultCountSum: number | null;
};

/** `condition_snapshot_rows`: one condition of one game (0 = market-wide). */
export type ConditionSnapshotRow = {
  gameId: number;
  condition: string;
  rank: number;
  searchCount: number;
  conditionShare: number;
  distinctUsers: number;
  mobileShare: number;
  redirects: number;
  watchCount: number;
  mobileCount: number | null;
};

/** A row type with some fields narrowed (a label to its union). */
export type Narrowed<
  Row,
  Narrow extends { [K in keyof Narrow]: K extends keyof Row ? Row[K] : never },
> = Omit<Row, keyof Narrow> & Narrow;
