import type { Period } from "@gmi/contract";
import { HISTORY_DEFAULT_DAYS, PRICE_CHANGE_DAYS } from "@gmi/contract";
import type { IsoDay } from "../domain/analytics/windows.js";
import type { DatedPrices } from "../domain/catalog/price-history.js";
import { GAME_COLUMNS, type GameColumns, type GameInfo, toGameInfo } from "./analytics-reads.js";
import { prepared, type Sql } from "./sql.js";

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

/** What a history answer is built from, read in one statement (`readGameHistory`). */
export type StoredHistory = {
  /** The game, enabled; null: unknown or disabled. */
  game: GameInfo | null;
  /** The latest computed date of the period not after today whose day had events; null: none. */
  latest: IsoDay | null;
  /** The range the points and prices were read for (`resolveHistoryRange` with `latest`). */
  range: { from: IsoDay; to: IsoDay } | null;
  points: StoredHistoryPoint[];
  /** The catalog's price runs the range's prices and changes need (data/price-observations.ts). */
  prices: DatedPrices[];
  /** The highest complete price among enabled games: the normalizer of a point without the game's row. */
  maxComplete: number;
};

/** The end of a UTC day (a date expression), as an instant: the day after 9999-12-31 is a date to PostgreSQL. */
const dayEnd = (day: string) => `((${day} + 1)::timestamp AT TIME ZONE 'UTC')`;

/** Days of price runs read before `to`: the range's length, or the longest price change if longer. */
const PRICE_DAYS = `GREATEST(r.t - r.f, ${PRICE_CHANGE_DAYS.join(", ")})`;

/**
 * A game's history, in one prepared statement: the game, the period's latest date (the default
 * `to`, as `findSnapshot` picks it), the range resolved as `resolveHistoryRange` does (`to` = the
 * asked one, else HISTORY_DEFAULT_DAYS from `from` up to the latest, else the latest; `from` = the
 * asked one, else HISTORY_DEFAULT_DAYS ending on `to`), one point per snapshot of the range (at
 * most 90 rows: the `(period, date)` unique index bounds the scan, the row table's primary key the
 * join), the game's price runs from the one in force at the start of the prices' window (the
 * primary key's order serves both bounds) and the normalizer. The caller checks the range against the contract's rule (a refused range is
 * a 422 that needs only `latest`).
 */
export const readGameHistory = async (
  sql: Sql,
  gameId: number,
  period: Period,
  today: IsoDay,
  asked: { from?: string | undefined; to?: string | undefined },
): Promise<StoredHistory> => {
  const { rows } = await sql.query<
    (GameColumns | { game_id: null }) & {
      latest: IsoDay | null;
      range_from: IsoDay | null;
      range_to: IsoDay | null;
      points: StoredHistoryPoint[] | null;
      prices: Array<{ day: IsoDay } & DatedPrices["prices"]> | null;
      max_complete: number | null;
    }
  >(
    prepared(
      `WITH l AS (SELECT max(date) AS latest FROM snapshots WHERE period = $2 AND date <= $3::date AND day_has_events),
       rt AS (SELECT l.latest, COALESCE($5::date,
         CASE WHEN $4::date IS NULL THEN l.latest ELSE LEAST($4::date + ${HISTORY_DEFAULT_DAYS - 1}, l.latest) END) AS t FROM l),
       r AS (SELECT rt.latest, COALESCE($4::date, rt.t - ${HISTORY_DEFAULT_DAYS - 1}) AS f, rt.t FROM rt),
       pts AS (SELECT s.date, x.liquidity_score, x.demand_index, x.redirects, x.distinct_users, x.watch_count,
           x.search_count
         FROM r JOIN snapshots s ON s.period = $2 AND s.date BETWEEN r.f AND r.t
         LEFT JOIN liquidity_snapshot_rows x ON x.snapshot_id = s.id AND x.scope_console_id = 0 AND x.game_id = $1)
       SELECT ${GAME_COLUMNS}, to_char(r.latest, 'YYYY-MM-DD') AS latest,
         to_char(r.f, 'YYYY-MM-DD') AS range_from, to_char(r.t, 'YYYY-MM-DD') AS range_to,
         (SELECT json_agg(json_build_object('date', to_char(pts.date, 'YYYY-MM-DD'),
             'liquidityScore', pts.liquidity_score, 'demandIndex', pts.demand_index, 'redirects', pts.redirects,
             'distinctUsers', pts.distinct_users, 'watchCount', pts.watch_count, 'searchCount', pts.search_count)
             ORDER BY pts.date) FROM pts) AS points,
         (SELECT json_agg(json_build_object('day', to_char(o.observed_at AT TIME ZONE 'UTC', 'YYYY-MM-DD'),
             'loose', o.price_loose::text, 'complete', o.price_complete::text, 'new', o.price_new::text)
             ORDER BY o.observed_at)
          FROM price_observations o
          WHERE o.game_id = $1 AND o.observed_at < ${dayEnd("r.t")} AND o.observed_at >= coalesce(
            (SELECT max(b.observed_at) FROM price_observations b
             WHERE b.game_id = $1 AND b.observed_at < ${dayEnd(`(r.t - ${PRICE_DAYS})`)}),
            '-infinity')) AS prices,
         CASE WHEN EXISTS (SELECT 1 FROM pts WHERE pts.liquidity_score IS NULL)
           THEN (SELECT max(price_complete)::float8 FROM games WHERE enabled) END AS max_complete
       FROM r LEFT JOIN (games g JOIN consoles c ON c.id = g.console_id) ON g.id = $1 AND g.enabled`,
      [gameId, period, today, asked.from ?? null, asked.to ?? null],
    ),
  );
  const row = rows[0];
  if (!row) throw new Error("the history statement returned no row");
  return {
    game: row.game_id === null ? null : toGameInfo(row as GameColumns),
    latest: row.latest,
    range:
      row.range_from !== null && row.range_to !== null ? { from: row.range_from, to: row.range_to } : null,
    points: row.points ?? [],
    prices: (row.prices ?? []).map(({ day, ...prices }) => ({ day, prices })),
    maxComplete: row.max_complete ?? 0,
  };
};
