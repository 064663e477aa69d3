import type { Sql } from "./sql.js";

/**
 * The newest snapshot (a row exists only once its snapshot is complete): when the last successful
 * rollup wrote, and how long that date took. For the metrics, whichever process ran the rollup.
 */
export const lastCompleteSnapshot = async (
  sql: Sql,
): Promise<{ computedAt: Date; durationMs: number } | null> => {
  const result = await sql.query<{ computed_at: Date; duration_ms: number }>(
    "SELECT computed_at, duration_ms FROM snapshots ORDER BY computed_at DESC LIMIT 1",
  );
  const row = result.rows[0];
  return row ? { computedAt: row.computed_at, durationMs: row.duration_ms } : null;
};
