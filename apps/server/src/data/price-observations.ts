import type { Pricing } from "@gmi/contract";
import { PRICE_OBSERVATIONS } from "../db/tables/price-observations.js";
import type { ColumnOf } from "../db/tables/table.js";
import type { IsoDay } from "../domain/analytics/windows.js";
import type { DatedPrices } from "../domain/catalog/price-history.js";
import type { PriceRun } from "../domain/catalog/price-runs.js";
import type { Sql } from "./sql.js";

type StoredRun = { gameId: number; observedAt: string; lastObservedAt: string } & Pricing;

/** Instants as the domain compares them: canonical UTC text with milliseconds. */
const instant = (column: string) => `to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;
const PRICES = `price_loose::text AS loose, price_complete::text AS complete, price_new::text AS new`;

/** The stored runs of these games, each game's in time order (games without any are absent). */
export const readPriceRuns = async (
  db: Sql,
  gameIds: readonly number[],
): Promise<Map<number, PriceRun[]>> => {
  const { rows } = await db.query<StoredRun>(
    `SELECT game_id AS "gameId", ${instant("observed_at")} AS "observedAt",
       ${instant("last_observed_at")} AS "lastObservedAt", ${PRICES}
     FROM price_observations WHERE game_id = ANY($1::int[]) ORDER BY game_id, observed_at`,
    [gameIds],
  );
  const runs = new Map<number, PriceRun[]>();
  for (const { gameId, observedAt, lastObservedAt, ...prices } of rows) {
    const list = runs.get(gameId) ?? [];
    if (list.length === 0) runs.set(gameId, list);
    list.push({ observedAt, lastObservedAt, prices });
  }
  return runs;
};

const COLUMNS = PRICE_OBSERVATIONS.columns.map((column) => column.name).join(", ");
const ARRAYS = PRICE_OBSERVATIONS.columns.map((column, i) => `$${i + 1}::${column.type}[]`).join(", ");

/** Replaces the runs of each game in `runs` (its whole history) in two statements. */
export const replacePriceRuns = async (db: Sql, runs: ReadonlyMap<number, readonly PriceRun[]>) => {
  if (runs.size === 0) return;
  await db.query("DELETE FROM price_observations WHERE game_id = ANY($1::int[])", [[...runs.keys()]]);
  const rows = [...runs].flatMap(([gameId, list]) => list.map((run) => ({ gameId, ...run })));
  const values: Record<ColumnOf<typeof PRICE_OBSERVATIONS>, unknown[]> = {
    game_id: rows.map((r) => r.gameId),
    observed_at: rows.map((r) => r.observedAt),
    last_observed_at: rows.map((r) => r.lastObservedAt),
    price_loose: rows.map((r) => r.prices.loose),
    price_complete: rows.map((r) => r.prices.complete),
    price_new: rows.map((r) => r.prices.new),
  };
  await db.query(
    `INSERT INTO price_observations (${COLUMNS}) SELECT * FROM unnest(${ARRAYS})`,
    PRICE_OBSERVATIONS.columns.map((column) => values[column.name]),
  );
};

/** The end of a UTC day, in SQL: the day after 9999-12-31 is a date to PostgreSQL, not to JavaScript. */
const dayEnd = (day: string) => `((${day}::date + 1)::timestamp AT TIME ZONE 'UTC')`;

/**
 * What a history from `first` to `last` needs of one game's runs, oldest first, as the UTC day each
 * began: those that began by the end of `last`, from the one in force at the end of `first` on
 * (the primary key's order serves both bounds).
 */
export const readDatedPrices = async (
  sql: Sql,
  gameId: number,
  first: IsoDay,
  last: IsoDay,
): Promise<DatedPrices[]> => {
  const { rows } = await sql.query<{ day: IsoDay } & Pricing>(
    `SELECT to_char(observed_at AT TIME ZONE 'UTC', 'YYYY-MM-DD') AS day, ${PRICES}
     FROM price_observations
     WHERE game_id = $1 AND observed_at < ${dayEnd("$3")} AND observed_at >= coalesce(
       (SELECT max(observed_at) FROM price_observations WHERE game_id = $1 AND observed_at < ${dayEnd("$2")}),
       '-infinity')
     ORDER BY observed_at`,
    [gameId, first, last],
  );
  return rows.map(({ day, ...prices }) => ({ day, prices }));
};
