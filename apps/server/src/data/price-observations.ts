import type { Pricing } from "@gmi/contract";
import { PRICE_OBSERVATIONS } from "../db/tables/price-observations.js";
import type { ColumnOf } from "../db/tables/table.js";
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
