import type { Period } from "@gmi/contract";
import { SNAPSHOT_ROW_TABLES } from "../db/tables/snapshot-rows.js";
import type { DayRun } from "../domain/analytics/day-runs.js";
import type { DayWindow, IsoDay } from "../domain/analytics/windows.js";
import type { Sql } from "./sql.js";

const isoDay = "to_char(date, 'YYYY-MM-DD')";

/**
 * The latest day, not after `notAfter` (today), with a redirect or a search event; null when there
 * is none. A future-dated event (a clock gone wrong upstream) never moves the rollup's default date.
 */
export const latestEventDay = async (db: Sql, notAfter: IsoDay): Promise<IsoDay | null> => {
  const { rows } = await db.query<{ day: string | null }>(
    `SELECT to_char(GREATEST(
       (SELECT max(day) FROM redirect_events WHERE day <= $1::date),
       (SELECT max(day) FROM search_events WHERE day <= $1::date)), 'YYYY-MM-DD') AS day`,
    [notAfter],
  );
  return rows[0]?.day ?? null;
};

/**
 * `<table>_days`: the days of the window ($1..$2) with an event in `table`, each found from the one
 * before by a probe of the table's (day, …) index (a loose index scan), not by reading its events.
 */
const eventDaysOf = (table: string) => `${table}_days(day) AS (
  SELECT min(day) FROM ${table} WHERE day BETWEEN $1::date AND $2::date
  UNION ALL
  SELECT (SELECT min(day) FROM ${table} WHERE day > d.day AND day <= $2::date)
  FROM ${table}_days d WHERE d.day IS NOT NULL)`;

/** The days of `window` with a redirect or a search event, as runs of consecutive days (oldest first). */
export const eventDayRuns = async (db: Sql, window: DayWindow): Promise<DayRun[]> => {
  const { rows } = await db.query<{ first: string; last: string }>(
    `WITH RECURSIVE ${eventDaysOf("redirect_events")}, ${eventDaysOf("search_events")},
     days AS (SELECT day FROM redirect_events_days WHERE day IS NOT NULL
              UNION SELECT day FROM search_events_days WHERE day IS NOT NULL)
     SELECT to_char(min(day), 'YYYY-MM-DD') AS first, to_char(max(day), 'YYYY-MM-DD') AS last
     FROM (SELECT day, day - (row_number() OVER (ORDER BY day))::int AS run FROM days) dated
     GROUP BY run ORDER BY min(day)`,
    [window.start, window.end],
  );
  return rows.map((r) => ({ first: r.first, last: r.last }));
};

export const computedDates = async (db: Sql, period: Period): Promise<Set<IsoDay>> => {
  const { rows } = await db.query<{ day: string }>(
    `SELECT ${isoDay} AS day FROM snapshots WHERE period = $1`,
    [period],
  );
  return new Set(rows.map((r) => r.day));
};

export type SnapshotRef = { id: number; period: Period; date: IsoDay };

/**
 * The snapshot of (period, date), or when `date` is absent of the latest computed date not after
 * `notAfter` (today) whose day had events: a snapshot of a future date (rolled up before rollups
 * refused them) or of a day without events (rolled up before they came in) is never the default.
 */
export const findSnapshot = async (
  db: Sql,
  period: Period,
  date: IsoDay | undefined,
  notAfter: IsoDay,
): Promise<SnapshotRef | null> => {
  const { rows } = date
    ? await db.query<{ id: number; day: string }>(
        `SELECT id, ${isoDay} AS day FROM snapshots WHERE period = $1 AND date = $2`,
        [period, date],
      )
    : await db.query<{ id: number; day: string }>(
        `SELECT id, ${isoDay} AS day FROM snapshots WHERE period = $1 AND date <= $2::date AND day_has_events
         ORDER BY date DESC LIMIT 1`,
        [period, notAfter],
      );
  const row = rows[0];
  return row ? { id: row.id, period, date: row.day } : null;
};

/**
 * Which snapshot a read asks for: `date` (null: the default, the latest computed date not after
 * `today` whose day had events, as `findSnapshot`). A date after `today` finds none.
 */
export type SnapshotAsked = { period: Period; date: IsoDay | null; today: IsoDay };

/**
 * `s(id, date)`: the snapshot `findSnapshot` resolves, as a CTE that one-statement reads start with
 * (their `$1..$3` are `snapshotParams`): the snapshot is resolved inside the read's own statement,
 * not in a round trip of its own. No row: no such snapshot (the caller's rare path says why).
 */
export const SNAPSHOT_CTE = `s AS (SELECT id, date FROM snapshots
  WHERE period = $1 AND date <= $3::date AND date = COALESCE($2::date,
    (SELECT max(date) FROM snapshots WHERE period = $1 AND date <= $3::date AND day_has_events)))`;

/** The snapshot's columns as a one-statement read returns them beside its rows. */
export const SNAPSHOT_COLUMNS = `s.id AS snapshot_id, to_char(s.date, 'YYYY-MM-DD') AS snapshot_date`;

export type SnapshotColumns = { snapshot_id: number; snapshot_date: IsoDay };

export const snapshotParams = (asked: SnapshotAsked): unknown[] => [asked.period, asked.date, asked.today];

export const snapshotOf = (asked: SnapshotAsked, row: SnapshotColumns): SnapshotRef => ({
  id: row.snapshot_id,
  period: asked.period,
  date: row.snapshot_date,
});

/**
 * The computed dates of a period up to `notAfter`, as runs of consecutive days (oldest first), for
 * the "no data for that date" error: a gap in the rollups shows as two runs, not one range.
 */
export const snapshotRuns = async (db: Sql, period: Period, notAfter: IsoDay): Promise<DayRun[]> => {
  const { rows } = await db.query<{ first: string; last: string }>(
    `SELECT to_char(min(date), 'YYYY-MM-DD') AS first, to_char(max(date), 'YYYY-MM-DD') AS last
     FROM (SELECT date, date - (row_number() OVER (ORDER BY date))::int AS run
           FROM snapshots WHERE period = $1 AND date <= $2::date) dated
     GROUP BY run ORDER BY min(date)`,
    [period, notAfter],
  );
  return rows.map((r) => ({ first: r.first, last: r.last }));
};

export const analyzeSnapshots = async (db: Sql): Promise<void> => {
  await db.query(`ANALYZE snapshots, ${SNAPSHOT_ROW_TABLES.map((table) => table.name).join(", ")}`);
};
