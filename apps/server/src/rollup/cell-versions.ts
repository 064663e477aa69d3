import type { Sql } from "../data/sql.js";
import { addDays, type IsoDay } from "../domain/analytics/windows.js";
import { LONGEST_WINDOW_DAYS, SLID_PERIODS, type SlidPeriod } from "../domain/rollup/slide.js";

/**
 * Versions of the event cells. Every rebuild of a family's cells is logged in
 * `event_cell_rebuilds` with the days it rebuilt, under a version that grows with each rebuild
 * (rebuilds are serialized by their advisory lock, so versions also commit in that order). A rollup
 * reads the latest version in the same transaction as the cells it aggregates and stores it with its
 * snapshots: a snapshot still describes the cells of its window exactly while no rebuild of a later
 * version touched one of the window's days.
 */

export type Family = "redirect" | "search" | "watch";

/** Logs a rebuild of `family`'s cells of `days` (null: every day), in the rebuild's transaction. */
export const logRebuild = async (
  sql: Sql,
  family: Family,
  days: { first: IsoDay; last: IsoDay } | null,
): Promise<void> => {
  await sql.query("INSERT INTO event_cell_rebuilds (family, first_day, last_day) VALUES ($1, $2, $3)", [
    family,
    days?.first ?? null,
    days?.last ?? null,
  ]);
};

/** The latest rebuild's version (0 before any); read it in the transaction that reads the cells. */
export const cellsVersion = async (sql: Sql): Promise<number> => {
  const { rows } = await sql.query<{ version: string }>(
    "SELECT COALESCE(max(version), 0)::text AS version FROM event_cell_rebuilds",
  );
  return Number(rows[0]?.version ?? 0);
};

/** The previous date's snapshots a rollup of D can slide by a day, by period. */
export type SlidableSnapshots = Record<SlidPeriod, number>;

/**
 * The ids of the snapshots of D-1 of every slid period (7d, 30d) if they all still describe the
 * cells of `families` in their windows (D-30..D-1 covers them): written with a cells version, and no rebuild of those
 * families since then touched those days. Null otherwise: the rollup of D then aggregates its
 * windows in full.
 */
export const slidableSnapshots = async (
  sql: Sql,
  date: IsoDay,
  families: readonly Family[],
): Promise<SlidableSnapshots | null> => {
  const { rows } = await sql.query<{ id: number; period: SlidPeriod }>(
    `SELECT s.id, s.period FROM snapshots s
     WHERE s.date = $1::date AND s.period = ANY($4::text[]) AND s.cells_version IS NOT NULL
       AND NOT EXISTS (
         SELECT 1 FROM event_cell_rebuilds r
         WHERE r.version > s.cells_version AND r.family = ANY($3::text[])
           AND (r.first_day IS NULL OR (r.first_day <= $1::date AND r.last_day >= $2::date)))`,
    [addDays(date, -1), addDays(date, -LONGEST_WINDOW_DAYS), families, SLID_PERIODS],
  );
  const ids = new Map(rows.map((row) => [row.period, row.id]));
  return SLID_PERIODS.every((period) => ids.has(period))
    ? (Object.fromEntries(ids) as SlidableSnapshots)
    : null;
};

/**
 * Of `dates`, those with a snapshot that no longer describes its cells: a rebuild after it (an
 * import, or events written by hand) touched a day of its 30-day window. The next rollup computes
 * them again, so an import shows in every figure without `--force`. Snapshots written before
 * versions existed are taken as they are.
 */
export const staleSnapshotDates = async (sql: Sql, dates: readonly IsoDay[]): Promise<Set<IsoDay>> => {
  if (dates.length === 0) return new Set();
  const { rows } = await sql.query<{ date: IsoDay }>(
    `SELECT DISTINCT to_char(s.date, 'YYYY-MM-DD') AS date FROM snapshots s
     WHERE s.date = ANY($1::date[]) AND s.cells_version IS NOT NULL
       AND EXISTS (
         SELECT 1 FROM event_cell_rebuilds r
         WHERE r.version > s.cells_version
           AND (r.first_day IS NULL OR (r.first_day <= s.date AND r.last_day >= s.date - ${LONGEST_WINDOW_DAYS - 1})))`,
    [dates],
  );
  return new Set(rows.map((r) => r.date));
};
