import type { Period } from "@gmi/contract";
import type { IsoDay } from "../domain/analytics/windows.js";
import { SNAPSHOT_ROW_TABLES } from "./snapshot-writer.js";
import type { Sql } from "./sql.js";

const isoDay = "to_char(date, 'YYYY-MM-DD')";

/** The latest day with a redirect or a search event, or null on an empty database. */
export const latestEventDay = async (db: Sql): Promise<IsoDay | null> => {
  const { rows } = await db.query<{ day: string | null }>(
    `SELECT to_char(GREATEST((SELECT max(day) FROM redirect_events), (SELECT max(day) FROM search_events)), 'YYYY-MM-DD') AS day`,
  );
  return rows[0]?.day ?? null;
};

export const computedDates = async (db: Sql, period: Period): Promise<Set<IsoDay>> => {
  const { rows } = await db.query<{ day: string }>(
    `SELECT ${isoDay} AS day FROM snapshots WHERE period = $1`,
    [period],
  );
  return new Set(rows.map((r) => r.day));
};

export type SnapshotRef = { id: number; period: Period; date: IsoDay };
export type SnapshotRange = { first: IsoDay; latest: IsoDay };

/** The snapshot of (period, date), or of the latest computed date when `date` is absent. */
export const findSnapshot = async (db: Sql, period: Period, date?: IsoDay): Promise<SnapshotRef | null> => {
  const { rows } = date
    ? await db.query<{ id: number; day: string }>(
        `SELECT id, ${isoDay} AS day FROM snapshots WHERE period = $1 AND date = $2`,
        [period, date],
      )
    : await db.query<{ id: number; day: string }>(
        `SELECT id, ${isoDay} AS day FROM snapshots WHERE period = $1 ORDER BY date DESC LIMIT 1`,
        [period],
      );
  const row = rows[0];
  return row ? { id: row.id, period, date: row.day } : null;
};

/** First and latest computed dates of a period (for the "no data for that date" error), or null. */
export const snapshotRange = async (db: Sql, period: Period): Promise<SnapshotRange | null> => {
  const { rows } = await db.query<{ first: string | null; latest: string | null }>(
    `SELECT to_char(min(date), 'YYYY-MM-DD') AS first, to_char(max(date), 'YYYY-MM-DD') AS latest FROM snapshots WHERE period = $1`,
    [period],
  );
  const row = rows[0];
  return row?.first && row.latest ? { first: row.first, latest: row.latest } : null;
};

export const analyzeSnapshots = async (db: Sql): Promise<void> => {
  await db.query(`ANALYZE snapshots, ${SNAPSHOT_ROW_TABLES.join(", ")}`);
};
