import { createHash } from "node:crypto";
import type pg from "pg";

/** What the data layer needs from a database: a pool (or client) that runs parameterised SQL. */
export type Sql = Pick<pg.Pool, "query">;

/**
 * A named (prepared) statement: PostgreSQL parses and plans it once per connection instead of on
 * every request. Used on the hot read paths, whose texts come from a small fixed set.
 */
export const prepared = (text: string, values: unknown[]) => ({
  name: `gmi_${createHash("sha1").update(text).digest("hex").slice(0, 16)}`,
  text,
  values,
});

/**
 * `sql` whose statements give up when PostgreSQL has not answered within `timeoutMs`
 * (node-postgres's query_timeout): the pool drops that connection and the caller gets an error
 * that reads as "unavailable" (data/unavailable.ts), so a request that reads from a PostgreSQL
 * that hangs is answered 503 instead of waiting for as long as it hangs.
 *
 * For reads only. A statement is already on the wire when it times out and may still run once
 * PostgreSQL answers again: a write given up on here could be applied after its request was
 * refused, and retried on top of that. The writes (charges, usage, idempotency records) wait.
 */
export const withReadTimeout = (sql: Sql, timeoutMs: number): Sql => {
  if (timeoutMs <= 0) return sql;
  const query = (config: string | pg.QueryConfig, values?: unknown[]) => {
    const timed: pg.QueryConfig & { query_timeout: number } =
      typeof config === "string"
        ? { text: config, values, query_timeout: timeoutMs }
        : { ...config, query_timeout: timeoutMs };
    return sql.query(timed);
  };
  return { query } as Sql;
};
