import type { Sql } from "../../src/data/sql.js";
import type { Database } from "../../src/db/open.js";
import { DEFAULT_SCORING } from "../../src/domain/analytics/weights.js";
import { rollupDate } from "../../src/rollup/rollup-dates.js";

/** The date of the analytics snapshots the batch tests read. */
export const BATCH_DATE = "2026-06-14";

/**
 * A little demand on the fixture catalog (test/helpers/catalog.ts), rolled up for BATCH_DATE:
 * 101 and 103 have redirects, 105 a watchlist alert, 101 searches; 106 is disabled.
 */
export const seedAnalytics = async (db: Database) => {
  const q = (text: string, values: unknown[] = []) => db.pool.query(text, values);
  const redirect = (gameId: number, user: string, day: string) =>
    q(
      "INSERT INTO redirect_events (game_id, user_id, occurred_at, day, device) VALUES ($1, $2, $3, $4, 'desktop')",
      [gameId, user, `${day}T12:00:00Z`, day],
    );
  await redirect(101, "u1", BATCH_DATE);
  await redirect(101, "u2", "2026-06-12");
  await redirect(101, "u1", "2026-05-30");
  await redirect(103, "u3", BATCH_DATE);
  await redirect(106, "u4", BATCH_DATE);
  await q(
    "INSERT INTO watch_events (game_id, user_id, created_at) VALUES (105, 'w1', '2026-06-01T00:00:00Z')",
  );
  await q(
    `INSERT INTO search_events (raw_query, query, user_id, occurred_at, day, source, device, result_count, game_id)
     VALUES ('chrono trigger', 'chrono trigger', 'u1', $1, $2, 'site', 'mobile', 4, 101)`,
    [`${BATCH_DATE}T09:00:00Z`, BATCH_DATE],
  );
  await rollupDate(db, BATCH_DATE, DEFAULT_SCORING);
};

/** The text of a statement as sent: a string, or a query config (a prepared statement's). */
const textOf = (query: unknown): string | null =>
  typeof query === "string"
    ? query
    : typeof query === "object" && query !== null && "text" in query && typeof query.text === "string"
      ? query.text
      : null;

/** The profile read of a batch (data/analytics-reads.ts readProfiles): one per processed batch. */
const isProfileRead = (query: unknown) => {
  const text = textOf(query);
  return Boolean(text?.includes("liquidity_snapshot_rows") && text.includes("ANY("));
};

/**
 * The database as the app sees it, with two test levers on the batch's profile read: a count of
 * them (how many batches were processed) and a gate that holds them (a request kept in flight).
 */
export const spySql = (sql: Sql) => {
  let reads = 0;
  let gate: Promise<void> | null = null;
  let open: () => void = () => {};
  const spy: Sql = {
    query: (async (...args: Parameters<Sql["query"]>) => {
      if (isProfileRead(args[0])) {
        reads += 1;
        if (gate) await gate;
      }
      return (sql.query as (...a: unknown[]) => Promise<unknown>)(...args);
    }) as Sql["query"],
  };
  return {
    sql: spy,
    profileReads: () => reads,
    /** Holds every profile read until the returned function is called. */
    hold: () => {
      gate = new Promise((resolve) => {
        open = resolve;
      });
      return () => {
        gate = null;
        open();
      };
    },
  };
};

export const json = { "content-type": "application/json" };

/**
 * pg's pool.end() resolves before its sockets are closed, and the test database is then dropped
 * WITH (FORCE): a socket still closing is terminated, which pg reports as a pool 'error' event
 * (unhandled: vitest fails the run). Nothing is lost; ignore it on pools a test file closes.
 */
export const ignoreTerminationOnDrop = (pool: { on(event: "error", listener: () => void): unknown }) => {
  pool.on("error", () => {});
};
