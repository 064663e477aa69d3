import type { GameIdentity } from "@gmi/contract";
import { LIQUIDITY_SNAPSHOT_ROWS, SEARCH_SNAPSHOT_ROWS } from "../db/tables/snapshot-rows.js";
import { columnsExcept, selectFields } from "../db/tables/table.js";
import type {
  StoredConditionRow,
  StoredLiquidityRow,
  StoredSearchRow,
} from "../domain/analytics/to-contract.js";
import { ORDER_PAGE_SIZE } from "./search-orders.js";
import {
  SNAPSHOT_COLUMNS,
  SNAPSHOT_CTE,
  type SnapshotAsked,
  type SnapshotColumns,
  type SnapshotRef,
  snapshotOf,
  snapshotParams,
} from "./snapshots.js";
import { prepared, type Sql } from "./sql.js";

/**
 * Reads of the rollup snapshots. Ranks are dense (1..N within a snapshot, scope and sort), so a page
 * is a rank range and a cursor a rank: no OFFSET scans, whatever the page number.
 */

export type GamePrices = { loose: string | null; complete: string | null; new: string | null };
export type GameInfo = { identity: GameIdentity; prices: GamePrices };

/** A slice of a ranking: ranks `fromRank`..`fromRank + count - 1`. */
export type RankSlice = { fromRank: number; count: number };

const LIQUIDITY_RANK = { liquidity: "rank_liquidity", demand: "rank_demand", value: "rank_value" } as const;
const SEARCH_RANK = { volume: "rank_volume", momentum: "rank_momentum", unmet: "rank_unmet" } as const;

/** A liquidity row as StoredLiquidityRow's fields (db/tables/snapshot-rows.ts). */
const LIQUIDITY_COLUMNS = selectFields(
  LIQUIDITY_SNAPSHOT_ROWS,
  columnsExcept(LIQUIDITY_SNAPSHOT_ROWS, ["snapshot_id"]),
  "r",
);

/** Identity and prices of a game, joined to its console; prices as two-decimal text. */
export const GAME_COLUMNS = `g.id AS game_id, g.display_game_name AS game_name, g.marketplace_game_name AS game_slug,
  g.console_id AS game_console_id, c.name AS game_console_name,
  g.price_loose::text AS price_loose, g.price_complete::text AS price_complete, g.price_new::text AS price_new`;

export type GameColumns = {
  game_id: number;
  game_name: string;
  game_slug: string;
  game_console_id: number;
  game_console_name: string;
  price_loose: string | null;
  price_complete: string | null;
  price_new: string | null;
};

export const toGameInfo = (row: GameColumns): GameInfo => ({
  identity: {
    id: row.game_id,
    name: row.game_name,
    slug: row.game_slug,
    console_id: row.game_console_id,
    console_name: row.game_console_name,
  },
  prices: { loose: row.price_loose, complete: row.price_complete, new: row.price_new },
});

export type LeaderboardEntry = { row: StoredLiquidityRow; game: GameInfo };

/**
 * One page of a ranked list read in one statement: the snapshot resolved inside it, the rows of the
 * page and the list's total. Null: no such snapshot (the caller's rare path tells why).
 */
export type RankedPage<Row> = { snapshot: SnapshotRef; rows: Row[]; total: number };

type PageColumns = SnapshotColumns & { total: number | null };

/**
 * `counted(id, date, total)`: the snapshot `s` with its list's size. A CTE of its own, materialized,
 * so the size is read once: as a column beside the page's rows it was read again for every row.
 */
const totalOf = (total: string) => `counted AS MATERIALIZED (SELECT s.id, s.date, ${total} AS total FROM s)`;

/**
 * The page of one statement's rows: every row carries the snapshot and the total, and a page past
 * the end is the one row of the snapshot with null row columns (`present` tells them apart).
 */
const rankedPage = <Raw extends PageColumns, Row>(
  asked: SnapshotAsked,
  rows: Raw[],
  present: (row: Raw) => boolean,
  toRow: (row: Raw) => Row,
): RankedPage<Row> | null => {
  const first = rows[0];
  if (!first) return null;
  return {
    snapshot: snapshotOf(asked, first),
    rows: rows.filter(present).map(toRow),
    total: first.total ?? 0,
  };
};

/**
 * A leaderboard page: ranks `slice` of one sort, with their games, and the ranking's size, in one
 * prepared statement. Ranks are dense (1..n), so the size is the highest rank: a backward probe of
 * the rank's index rather than a count of the scope's rows.
 */
export const readLeaderboardPage = async (
  sql: Sql,
  asked: SnapshotAsked,
  scope: number,
  sort: keyof typeof LIQUIDITY_RANK,
  slice: RankSlice,
): Promise<RankedPage<LeaderboardEntry> | null> => {
  const rank = LIQUIDITY_RANK[sort];
  const { rows } = await sql.query<PageColumns & StoredLiquidityRow & GameColumns>(
    prepared(
      `WITH ${SNAPSHOT_CTE}, ${totalOf(`(SELECT max(t.${rank}) FROM liquidity_snapshot_rows t
          WHERE t.snapshot_id = s.id AND t.scope_console_id = $4)`)}
       SELECT ${SNAPSHOT_COLUMNS}, s.total, p.*
       FROM counted s LEFT JOIN LATERAL (
         SELECT ${LIQUIDITY_COLUMNS}, ${GAME_COLUMNS}, r.${rank} AS place
         FROM liquidity_snapshot_rows r JOIN games g ON g.id = r.game_id JOIN consoles c ON c.id = g.console_id
         WHERE r.snapshot_id = s.id AND r.scope_console_id = $4 AND r.${rank} >= $5::int AND r.${rank} < $5::int + $6::int
       ) p ON true
       ORDER BY p.place`,
      [...snapshotParams(asked), scope, slice.fromRank, slice.count],
    ),
  );
  return rankedPage(
    asked,
    rows,
    (row) => row.game_id !== null,
    (row) => ({ row, game: toGameInfo(row) }),
  );
};

/** The profile read of games (one, or a batch's): their all-consoles rows, with the normalizer. */
const PROFILE_COLUMNS = `${LIQUIDITY_COLUMNS}, ${GAME_COLUMNS},
  CASE WHEN r.game_id IS NULL THEN (SELECT max(price_complete)::float8 FROM games WHERE enabled) END AS max_complete`;

type ProfileColumns = (StoredLiquidityRow | { gameId: null }) & GameColumns & { max_complete: number | null };

/** A game's all-consoles profile source: its row, or null and the normalizer of a game the snapshot lacks. */
export type ProfileSource = { row: StoredLiquidityRow | null; game: GameInfo; maxComplete: number };

const profileSourceOf = (row: ProfileColumns): ProfileSource => ({
  row: row.gameId === null ? null : (row as StoredLiquidityRow),
  game: toGameInfo(row),
  maxComplete: row.max_complete ?? 0,
});

/**
 * The all-consoles rows of the given games (batch). Only enabled games are returned: an id missing
 * from the result is unknown or disabled. `row` is null for an enabled game the snapshot does not
 * hold (added to the catalog after the rollup); `maxComplete` is then the highest complete price
 * among enabled games, its normalizer, read by the same statement.
 */
export const readProfiles = async (
  sql: Sql,
  snapshotId: number,
  gameIds: readonly number[],
): Promise<Map<number, ProfileSource>> => {
  const { rows } = await sql.query<ProfileColumns>(
    prepared(
      `SELECT ${PROFILE_COLUMNS}
       FROM games g JOIN consoles c ON c.id = g.console_id
       LEFT JOIN liquidity_snapshot_rows r ON r.snapshot_id = $1 AND r.scope_console_id = 0 AND r.game_id = g.id
       WHERE g.id = ANY($2::int[]) AND g.enabled`,
      [snapshotId, [...new Set(gameIds)]],
    ),
  );
  return new Map(rows.map((row) => [row.game_id, profileSourceOf(row)]));
};

/**
 * One game's profile in the snapshot asked, in one statement: null when there is no such snapshot,
 * `{snapshot, profile: null}` for an unknown or disabled game.
 */
export const readProfile = async (
  sql: Sql,
  asked: SnapshotAsked,
  gameId: number,
): Promise<{ snapshot: SnapshotRef; profile: ProfileSource | null } | null> => {
  const { rows } = await sql.query<SnapshotColumns & ProfileColumns>(
    prepared(
      `WITH ${SNAPSHOT_CTE}
       SELECT ${SNAPSHOT_COLUMNS}, p.* FROM s LEFT JOIN LATERAL (
         SELECT ${PROFILE_COLUMNS}
         FROM games g JOIN consoles c ON c.id = g.console_id
         LEFT JOIN liquidity_snapshot_rows r ON r.snapshot_id = s.id AND r.scope_console_id = 0 AND r.game_id = g.id
         WHERE g.id = $4 AND g.enabled
       ) p ON true`,
      [...snapshotParams(asked), gameId],
    ),
  );
  const row = rows[0];
  if (!row) return null;
  return { snapshot: snapshotOf(asked, row), profile: row.game_id === null ? null : profileSourceOf(row) };
};

/** A search row as StoredSearchRow's fields; the sums kept for the next date's slide left out. */
const SEARCH_COLUMNS = selectFields(
  SEARCH_SNAPSHOT_ROWS,
  columnsExcept(SEARCH_SNAPSHOT_ROWS, ["snapshot_id", "mobile_count", "result_count_sum"]),
  "r",
);

/** A search list: `/searches` in a sort, `/unmet`, or `/trending` (momentum, rows without one left out). */
export type SearchListName = keyof typeof SEARCH_RANK | "trending";

/**
 * How many rows a search list holds: the volume one is every row (dense ranks: the highest);
 * momentum and unmet, their order pages; `/trending`, the rows with a momentum value (that order
 * ranks the others last).
 */
const searchTotal = (list: SearchListName) => {
  if (list === "volume")
    return `(SELECT max(t.rank_volume) FROM search_snapshot_rows t
      WHERE t.snapshot_id = s.id AND t.scope_console_id = $4)`;
  if (list === "trending")
    return `(SELECT count(*)::int FROM search_snapshot_rows t
      WHERE t.snapshot_id = s.id AND t.scope_console_id = $4 AND t.momentum_value IS NOT NULL)`;
  return `(SELECT sum(cardinality(o.volume_ranks))::int FROM search_snapshot_orders o
    WHERE o.snapshot_id = s.id AND o.scope_console_id = $4 AND o.sort = '${list}')`;
};

/**
 * The statement of a search page. Volume ranks are the rows' key, so a volume page is a rank range.
 * A momentum or unmet page is first turned into volume ranks through the order pages that cover it
 * (data/search-orders.ts), gathered into one array the rows are then probed with by primary key:
 * planned as a join, a fresh snapshot's missing statistics once led the planner to a nested loop
 * over every row of the scope (8 s at 10M events); the array keeps the probe an index lookup.
 */
const searchPageText = (list: SearchListName): string => {
  const sort = list === "trending" ? "momentum" : list;
  const rank = SEARCH_RANK[sort];
  const head = `WITH ${SNAPSHOT_CTE}, ${totalOf(searchTotal(list))}`;
  const tail = (where: string) => `SELECT ${SNAPSHOT_COLUMNS}, s.total, p.*
    FROM counted s LEFT JOIN LATERAL (
      SELECT ${SEARCH_COLUMNS}, r.${rank} AS place FROM search_snapshot_rows r
      WHERE r.snapshot_id = s.id AND r.scope_console_id = $4 AND ${where}
    ) p ON true
    ORDER BY p.place`;
  if (sort === "volume")
    return `${head} ${tail("r.rank_volume >= $5::int AND r.rank_volume < $5::int + $6::int")}`;
  const withMomentum = list === "trending" ? " AND r.momentum_value IS NOT NULL" : "";
  // Positions in the order are 0-based: ranks $5 .. $5 + $6 - 1 are positions $5 - 1 .. $5 + $6 - 2.
  return `${head}, v AS MATERIALIZED (
      SELECT array_agg(u.volume_rank) AS ranks
      FROM s JOIN search_snapshot_orders o ON o.snapshot_id = s.id AND o.scope_console_id = $4
        AND o.sort = '${sort}'
        AND o.page BETWEEN ($5::int - 1) / ${ORDER_PAGE_SIZE} AND ($5::int + $6::int - 2) / ${ORDER_PAGE_SIZE}
      CROSS JOIN LATERAL unnest(o.volume_ranks) WITH ORDINALITY u(volume_rank, ordinal)
      WHERE o.page * ${ORDER_PAGE_SIZE} + u.ordinal >= $5::int
        AND o.page * ${ORDER_PAGE_SIZE} + u.ordinal < $5::int + $6::int)
    ${tail(`r.rank_volume = ANY((SELECT ranks FROM v)::int[])${withMomentum}`)}`;
};

/** A page of a search list (ranks `slice` of its order) and the list's size, in one prepared statement. */
export const readSearchPage = async (
  sql: Sql,
  asked: SnapshotAsked,
  scope: number,
  list: SearchListName,
  slice: RankSlice,
): Promise<RankedPage<StoredSearchRow> | null> => {
  const { rows } = await sql.query<PageColumns & StoredSearchRow>(
    prepared(searchPageText(list), [...snapshotParams(asked), scope, slice.fromRank, slice.count]),
  );
  return rankedPage(
    asked,
    rows,
    (row) => row.query !== null,
    (row) => row,
  );
};

const CONDITION_COLUMNS = `cr.game_id AS "gameId", cr.condition, cr.rank, cr.search_count AS "searchCount",
  cr.condition_share AS "conditionShare", cr.distinct_users AS "distinctUsers", cr.mobile_share AS "mobileShare",
  cr.redirects, cr.watch_count AS "watchCount"`;

type ConditionColumns = StoredConditionRow | { condition: null };

/**
 * One game's stored condition rows in the snapshot asked, with the game (enabled; null: unknown or
 * disabled), in one statement; `rows` is empty when it had no activity. Null: no such snapshot.
 */
export const readGameConditions = async (
  sql: Sql,
  asked: SnapshotAsked,
  gameId: number,
): Promise<{ snapshot: SnapshotRef; game: GameInfo | null; rows: StoredConditionRow[] } | null> => {
  const { rows } = await sql.query<SnapshotColumns & (GameColumns | { game_id: null }) & ConditionColumns>(
    prepared(
      `WITH ${SNAPSHOT_CTE}
       SELECT ${SNAPSHOT_COLUMNS}, ${GAME_COLUMNS}, ${CONDITION_COLUMNS}
       FROM s LEFT JOIN (games g JOIN consoles c ON c.id = g.console_id) ON g.id = $4 AND g.enabled
       LEFT JOIN condition_snapshot_rows cr ON cr.snapshot_id = s.id AND cr.game_id = g.id
       ORDER BY cr.rank`,
      [...snapshotParams(asked), gameId],
    ),
  );
  const first = rows[0];
  if (!first) return null;
  return {
    snapshot: snapshotOf(asked, first),
    game: first.game_id === null ? null : toGameInfo(first as GameColumns),
    rows: rows.filter((row) => row.condition !== null) as StoredConditionRow[],
  };
};

/** The market-wide condition rows (game 0) of the snapshot asked, in one statement. Null: no snapshot. */
export const readMarketConditions = async (
  sql: Sql,
  asked: SnapshotAsked,
): Promise<{ snapshot: SnapshotRef; rows: StoredConditionRow[] } | null> => {
  const { rows } = await sql.query<SnapshotColumns & ConditionColumns>(
    prepared(
      `WITH ${SNAPSHOT_CTE}
       SELECT ${SNAPSHOT_COLUMNS}, ${CONDITION_COLUMNS}
       FROM s LEFT JOIN condition_snapshot_rows cr ON cr.snapshot_id = s.id AND cr.game_id = 0
       ORDER BY cr.rank`,
      snapshotParams(asked),
    ),
  );
  const first = rows[0];
  if (!first) return null;
  return {
    snapshot: snapshotOf(asked, first),
    rows: rows.filter((row) => row.condition !== null) as StoredConditionRow[],
  };
};
