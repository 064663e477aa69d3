import type { Sql } from "./sql.js";

/**
 * A fingerprint of everything cached read answers are built from: the catalog (games, consoles)
 * and the snapshots (a rollup writes a new snapshot, or updates its row when it completes). Any
 * insert, update or delete changes it, also one made by hand in psql: every new row version has a
 * new xmin (a transaction id; freezing keeps the value), so the sum of xmins and the row counts move
 * with the data. A sequential scan of those tables, read at most once a second (caches/data-version.ts).
 */
export const readDataVersion = async (sql: Sql): Promise<string> => {
  const result = await sql.query<{ version: string }>(
    `SELECT concat_ws(':',
       (SELECT concat(count(*), '/', sum(xmin::text::bigint)) FROM games),
       (SELECT concat(count(*), '/', sum(xmin::text::bigint)) FROM consoles),
       (SELECT concat(count(*), '/', sum(xmin::text::bigint)) FROM snapshots)) AS version`,
  );
  return result.rows[0]?.version ?? "";
};
