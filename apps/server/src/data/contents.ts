import type { Sql } from "./sql.js";

export type EventCounts = { redirect: number; watch: number; search: number };

/** How many events of each kind the database holds (exact counts: for `gmi seed`'s check, not a hot path). */
export const countEvents = async (sql: Sql): Promise<EventCounts> => {
  const { rows } = await sql.query<EventCounts>(
    `SELECT (SELECT count(*)::int FROM redirect_events) AS redirect,
            (SELECT count(*)::int FROM watch_events) AS watch,
            (SELECT count(*)::int FROM search_events) AS search`,
  );
  return rows[0] ?? { redirect: 0, watch: 0, search: 0 };
};
