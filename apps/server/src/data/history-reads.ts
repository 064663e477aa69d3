import type { Period } from "@gmi/contract";
import type { IsoDay } from "../domain/analytics/windows.js";
import type { Sql } from "./sql.js";

/** A game's all-consoles figures in one snapshot; `null` figures: the snapshot has no row for it. */
export type StoredHistoryPoint = {
  date: IsoDay;
  liquidityScore: number | null;
  demandIndex: number | null;
  redirects: number | null;
  distinctUsers: number | null;
  watchCount: number | null;
  searchCount: number | null;
};

/**
 * One row per snapshot of `period` dated `from`..`to`, oldest first, each joined to the game's
 * all-consoles row when it has one (a game without demand that date has none). At most 90 rows:
 * the `(period, date)` unique index bounds the scan, the row table's primary key the join.
 */
export const readGameHistory = async (
  sql: Sql,
  gameId: number,
  period: Period,
  from: IsoDay,
  to: IsoDay,
): Promise<StoredHistoryPoint[]> => {
  const { rows } = await sql.query<StoredHistoryPoint>(
    `SELECT to_char(s.date, 'YYYY-MM-DD') AS date, r.liquidity_score AS "liquidityScore",
       r.demand_index AS "demandIndex", r.redirects, r.distinct_users AS "distinctUsers",
       r.watch_count AS "watchCount", r.search_count AS "searchCount"
     FROM snapshots s
     LEFT JOIN liquidity_snapshot_rows r ON r.snapshot_id = s.id AND r.scope_console_id = 0 AND r.game_id = $1
     WHERE s.period = $2 AND s.date BETWEEN $3::date AND $4::date
     ORDER BY s.date`,
    [gameId, period, from, to],
  );
  return rows;
};
