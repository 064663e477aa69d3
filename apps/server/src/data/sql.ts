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
