import type pg from "pg";
import type { Sql } from "../data/sql.js";
import { addDays, type IsoDay } from "../domain/analytics/windows.js";
import { LONGEST_WINDOW_DAYS, NO_RECENT_GAP } from "../domain/rollup/slide.js";
import { type Family, logRebuild } from "./cell-versions.js";

/**
 * Rebuilds the daily event cells (schema.prisma, "Daily event cells") of the days the triggers
 * marked stale, from the events themselves: a rebuilt day is exactly what the events say, however
 * often and in whatever order they were loaded.
 *
 * A day's `gap` depends on the LONGEST_WINDOW_DAYS (30) before it, so an event on day t can change
 * the cells of t..t+30: a stale range A..B rebuilds the cells of A..B+30 from the events of
 * A-30..B+30.
 *
 * Cells are inserted in day order: a rollup reads a 30-day window of them, and with a day's cells
 * side by side it reads that window's pages instead of scanning every day ever loaded (90 days of
 * 10M events: the search aggregate of a rollup 1.2 s -> 0.9-1.0 s, and no longer growing with the
 * days kept). Redirect and search cells go in (day, gap) order, their key's: a rollup sliding the
 * previous date's windows reads one gap of a day at a time.
 *
 * Every rebuild is logged with the days it rebuilt (cell-versions.ts): a snapshot read before it
 * from cells of those days no longer describes them.
 */

/** Windows are at most LONGEST_WINDOW_DAYS: a gap above it is "none", stored as NO_RECENT_GAP. */
const gapOf = (partition: string) =>
  `COALESCE(LEAST(day - lag(day) OVER (PARTITION BY ${partition} ORDER BY day), ${NO_RECENT_GAP}), ${NO_RECENT_GAP})`;

/**
 * Text keys of a window's partition compared as bytes: the partition only needs equal keys side by
 * side, and the database's collation (C.UTF-8) sorts through strcoll without abbreviated keys.
 */
const BYTES = 'COLLATE "C"';

/** The events a rebuild of days $1..$2 reads: a gap looks LONGEST_WINDOW_DAYS back. */
const EVENT_DAYS = `BETWEEN $1::date - ${LONGEST_WINDOW_DAYS} AND $2::date`;

const REDIRECT_SQL = `
INSERT INTO redirect_day_cells (day, game_id, gap, users, redirects, loose, cib, sealed)
SELECT day, game_id, gap, count(*), sum(n), sum(loose), sum(cib), sum(sealed)
FROM (
  SELECT day, game_id, n, loose, cib, sealed, ${gapOf(`game_id, user_id ${BYTES}`)} AS gap
  FROM (
    SELECT day, game_id, user_id, count(*)::int AS n,
      (count(*) FILTER (WHERE condition = 'loose'))::int AS loose,
      (count(*) FILTER (WHERE condition = 'cib'))::int AS cib,
      (count(*) FILTER (WHERE condition = 'new'))::int AS sealed
    FROM redirect_events WHERE day ${EVENT_DAYS}
    GROUP BY day, game_id, user_id
  ) pairs
) gapped
WHERE day >= $1::date
GROUP BY day, gap, game_id
ORDER BY day, gap, game_id`;

/**
 * A search counts in scope 0 and in its console scope (its console_id, else its game's console;
 * docs/scoring.md). One user searching a query in two console scopes on a day is one pair in scope 0.
 * Both come from one pass over the events (GROUPING SETS, not a second aggregate of the first);
 * counts are int, so their sums stay bigint instead of numeric. Cells are grouped in the order they
 * are inserted, their key's.
 */
const SEARCH_SQL = `
WITH scoped AS (
  SELECT day, query, user_id, CASE WHEN grouping(scope) = 1 THEN 0 ELSE scope END AS scope,
    count(*)::int AS n,
    (count(*) FILTER (WHERE source = 'pricing'))::int AS pricing,
    (count(*) FILTER (WHERE device = 'mobile'))::int AS mobile,
    sum(result_count) AS result_sum,
    (count(*) FILTER (WHERE result_count = 0))::int AS zero
  FROM (
    SELECT s.day, s.query, s.user_id, COALESCE(s.console_id, g.console_id) AS scope, s.source, s.device, s.result_count
    FROM search_events s LEFT JOIN games g ON g.id = s.game_id
    WHERE s.day ${EVENT_DAYS}
  ) e
  GROUP BY GROUPING SETS ((day, query, user_id, scope), (day, query, user_id))
  HAVING grouping(scope) = 1 OR scope IS NOT NULL
)
INSERT INTO search_day_cells (day, scope_console_id, query, gap, users, searches, pricing, mobile, result_sum, zero_results)
SELECT day, scope, query, gap, count(*), sum(n), sum(pricing), sum(mobile), sum(result_sum), sum(zero)
FROM (SELECT *, ${gapOf(`scope, query ${BYTES}, user_id ${BYTES}`)} AS gap FROM scoped) gapped
WHERE day >= $1::date
GROUP BY day, gap, scope, query
ORDER BY day, gap, scope, query`;

/**
 * Condition rows: game 0 gets every search with a condition; a game gets its own, and its searches
 * without a condition under '' (its liquidity search_count counts them).
 */
const SEARCH_CONDITION_SQL = `
WITH keyed AS (
  SELECT day, CASE WHEN grouping(game_id) = 1 THEN 0 ELSE game_id END AS game_id,
    COALESCE(condition, '') AS condition, user_id,
    count(*)::int AS n, (count(*) FILTER (WHERE device = 'mobile'))::int AS mobile
  FROM search_events
  WHERE day ${EVENT_DAYS} AND (condition IS NOT NULL OR game_id IS NOT NULL)
  GROUP BY GROUPING SETS ((day, condition, user_id), (day, game_id, condition, user_id))
  HAVING (grouping(game_id) = 1 AND condition IS NOT NULL) OR game_id IS NOT NULL
)
INSERT INTO search_condition_day_cells (day, game_id, condition, gap, users, searches, mobile)
SELECT day, game_id, condition, gap, count(*), sum(n), sum(mobile)
FROM (SELECT *, ${gapOf(`game_id, condition ${BYTES}, user_id ${BYTES}`)} AS gap FROM keyed) gapped
WHERE day >= $1::date
GROUP BY day, gap, game_id, condition
ORDER BY day, gap, game_id, condition`;

const utcDay = (column: string) => `((${column}) AT TIME ZONE 'UTC')::date`;
const utcStart = (day: string) => `((${day})::timestamp AT TIME ZONE 'UTC')`;

const WATCH_SQL = `
INSERT INTO watch_day_cells (day, game_id, condition, created, removed)
SELECT day, game_id, condition, sum(created), sum(removed)
FROM (
  SELECT ${utcDay("created_at")} AS day, game_id, COALESCE(condition, '') AS condition, 1 AS created, 0 AS removed
  FROM watch_events WHERE created_at >= ${utcStart("$1::date")} AND created_at < ${utcStart("$2::date + 1")}
  UNION ALL
  SELECT ${utcDay("removed_at")}, game_id, COALESCE(condition, ''), 0, 1
  FROM watch_events WHERE removed_at >= ${utcStart("$1::date")} AND removed_at < ${utcStart("$2::date + 1")}
) w
GROUP BY day, game_id, condition
ORDER BY day`;

const FAMILIES: Record<Family, { tables: string[]; inserts: string[]; reach: number }> = {
  redirect: { tables: ["redirect_day_cells"], inserts: [REDIRECT_SQL], reach: LONGEST_WINDOW_DAYS },
  search: {
    tables: ["search_day_cells", "search_condition_day_cells"],
    inserts: [SEARCH_SQL, SEARCH_CONDITION_SQL],
    reach: LONGEST_WINDOW_DAYS,
  },
  watch: { tables: ["watch_day_cells"], inserts: [WATCH_SQL], reach: 0 },
};

type Stale = { family: Family; every: boolean; first: IsoDay; last: IsoDay };

/** Whether any day is waiting for a rebuild (a cheap check before opening a transaction). */
export const hasStaleCells = async (db: Sql): Promise<boolean> => {
  const { rows } = await db.query<{ stale: boolean }>(
    "SELECT EXISTS (SELECT 1 FROM event_cell_dirty) AS stale",
  );
  return rows[0]?.stale ?? false;
};

/**
 * Rebuilds every stale day, inside the caller's transaction on `client`. Serialized by an
 * advisory lock held to the end of that transaction, so a rebuild always starts after the previous
 * one committed and sees its events; marks of transactions not yet committed stay for their own
 * rebuild (the importer rebuilds before it commits).
 */
export const rebuildStaleCells = async (client: pg.PoolClient): Promise<void> => {
  await client.query("SELECT pg_advisory_xact_lock(hashtext('gmi:event-cells'))");
  const { rows } = await client.query<Stale>(
    `WITH taken AS (DELETE FROM event_cell_dirty RETURNING family, day)
     SELECT family, bool_or(day IS NULL) AS every, to_char(min(day), 'YYYY-MM-DD') AS first,
       to_char(max(day), 'YYYY-MM-DD') AS last
     FROM taken GROUP BY family`,
  );
  if (rows.length === 0) return;
  // The window functions sort a whole range of events: in memory rather than in temporary files.
  await client.query("SELECT set_config('work_mem', '256MB', true)");
  // Compiling these plans (JIT, for their cost estimate) takes longer than it saves on one run.
  await client.query("SELECT set_config('jit', 'off', true)");
  for (const stale of rows) {
    const family = FAMILIES[stale.family];
    if (!family) continue;
    // Cells of days first..last+reach; infinite dates when a mark said "every day".
    const from = stale.every ? "-infinity" : stale.first;
    const to = stale.every ? "infinity" : addDays(stale.last, family.reach);
    for (const table of family.tables)
      await client.query(`DELETE FROM ${table} WHERE day BETWEEN $1::date AND $2::date`, [from, to]);
    for (const sql of family.inserts) await client.query(sql, [from, to]);
    await logRebuild(client, stale.family, stale.every ? null : { first: stale.first, last: to });
  }
};

/** Rebuilds stale days in a transaction of its own (for writes that did not go through the importer). */
export const refreshCells = async (pool: pg.Pool): Promise<void> => {
  if (!(await hasStaleCells(pool))) return;
  const client = await pool.connect();
  try {
    await client.query("BEGIN");
    await rebuildStaleCells(client);
    await client.query("COMMIT");
  } catch (error) {
    await client.query("ROLLBACK").catch(() => {});
    throw error;
  } finally {
    client.release();
  }
};
