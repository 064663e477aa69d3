import type { Sql } from "./sql.js";
import { prepared } from "./sql.js";

/** One count of a usage write: units added to an organization-month (negative: given back). */
type UsageCount = { organizationId: number; month: string; units: number };

/**
 * Counts added to usage_months once however often the statement carrying them is tried: its id is
 * recorded in usage_flushes by the same statement, and a statement that finds it recorded adds
 * nothing. A statement whose answer is lost (the connection cut after the commit) looks failed and
 * is tried again as it is, with its id.
 */
export type UsageWrite = { id: string; counts: UsageCount[] };

/** A data-modifying statement (its values are $1..$n) run in the same statement as a usage write. */
type Alongside = { sql: string; values: unknown[] };

/**
 * The statement that applies `write`, and `alongside` in the same transaction when given (a keyed
 * batch's paid mark: both are durable together, or neither is). A give-back for a row that is gone
 * is dropped rather than written as a negative count.
 */
export const usageWriteStatement = (write: UsageWrite, alongside?: Alongside) => {
  const n = alongside?.values.length ?? 0;
  const [orgs, months, units, id] = [n + 1, n + 2, n + 3, n + 4].map((i) => `$${i}`);
  const text = `WITH ${alongside ? `alongside AS (${alongside.sql}), ` : ""}flush AS (
    INSERT INTO usage_flushes (id) VALUES (${id}) ON CONFLICT DO NOTHING RETURNING id
  ), deltas AS (
    SELECT * FROM unnest(${orgs}::int[], ${months}::text[], ${units}::bigint[]) AS d(org, month, n)
    WHERE EXISTS (SELECT 1 FROM flush)
  )
  INSERT INTO usage_months (organization_id, month, used)
  SELECT d.org, d.month, d.n FROM deltas d
  WHERE d.n > 0 OR EXISTS (SELECT 1 FROM usage_months u WHERE u.organization_id = d.org AND u.month = d.month)
  ON CONFLICT (organization_id, month) DO UPDATE SET used = usage_months.used + EXCLUDED.used`;
  return prepared(text, [
    ...(alongside?.values ?? []),
    write.counts.map((c) => c.organizationId),
    write.counts.map((c) => c.month),
    write.counts.map((c) => c.units),
    write.id,
  ]);
};

/** Usage write ids are kept this long: a write is tried again within seconds, never days, later. */
const IDS_KEPT = "2 days";

/** Deletes the ids of usage writes older than IDS_KEPT. */
export const purgeUsageWriteIds = async (sql: Sql) => {
  await sql.query(`DELETE FROM usage_flushes WHERE flushed_at < now() - interval '${IDS_KEPT}'`);
};
