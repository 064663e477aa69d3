import type { Sql } from "../../src/data/sql.js";

/** Whether a statement is a key lookup (data/keys.ts: one key by hash, or many). */
const isKeyLookup = (statement: unknown) => {
  const text = typeof statement === "string" ? statement : (statement as { text?: string }).text;
  return text?.includes("FROM api_keys k") === true;
};

/** The database as the app sees it, counting the key lookups it is asked for. */
export const countingKeyLookups = (sql: Sql) => {
  let lookups = 0;
  const counted: Sql = {
    query: ((...args: Parameters<Sql["query"]>) => {
      if (isKeyLookup(args[0])) lookups += 1;
      return (sql.query as (...a: unknown[]) => Promise<unknown>)(...args);
    }) as Sql["query"],
  };
  return { sql: counted, lookups: () => lookups };
};
