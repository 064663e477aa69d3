import { readFile } from "node:fs/promises";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { manualClock } from "../src/clock.js";
import { MIGRATIONS_DIR, migrationNames } from "../src/db/migrate.js";
import { importLines } from "../src/jobs/import.js";
import { useTestDatabase, withClient } from "./helpers/setup.js";

const db = useTestDatabase({ catalog: false });

/** The migration's statements that key the events stored before it, one per table. */
const backfills = async () => {
  const name = (await migrationNames()).find((n) => n.endsWith("_event_keys"));
  const sql = await readFile(path.join(MIGRATIONS_DIR, name as string, "migration.sql"), "utf8");
  return sql.split("\n").filter((line) => /^UPDATE "\w+" SET "event_key" = /.test(line));
};

describe("the event_keys migration", () => {
  it("keys stored events in SQL exactly as the importer keys their lines", async () => {
    const lines = [
      '{"type":"console","id":1,"name":"Super Nintendo","slug":"snes"}',
      '{"type":"game","id":101,"console_id":1,"display_game_name":"Chrono Trigger","marketplace_game_name":"chrono-trigger"}',
      '{"type":"redirect","game_id":101,"user_id":"u1","occurred_at":"2026-11-20T11:00:00.25+01:00","condition":"any"}',
      '{"type":"redirect","game_id":101,"user_id":7,"occurred_at":"2026-11-20T10:00:00Z","condition":"cib","device":"mobile"}',
      '{"type":"watch","game_id":101,"user_id":"ü\\t2","created_at":"2026-11-19T08:00:00Z","removed_at":"2026-11-20T08:00:00Z"}',
      '{"type":"search","query":"Pokémon  ÉMERALD\\\\","user_id":"u3","occurred_at":"2026-11-20T11:00:00Z","source":"site","device":"desktop","result_count":0,"console_id":1}',
      '{"type":"search","query":"chrono trigger","user_id":"u3","occurred_at":"2026-11-20T12:00:00.001Z","source":"pricing","device":"mobile","result_count":12,"condition":"any","game_id":101}',
    ];
    const report = await importLines(db(), lines, undefined, { clock: manualClock(new Date("2026-11-21")) });
    expect(report).toMatchObject({ new: 5, rejected: 0 });
    const keys = async () =>
      (
        await db().pool.query<{ k: string }>(
          `SELECT event_key::text AS k FROM redirect_events UNION ALL SELECT event_key::text FROM watch_events
           UNION ALL SELECT event_key::text FROM search_events ORDER BY 1`,
        )
      ).rows.map((r) => r.k);
    const before = await keys();
    const statements = await backfills();
    expect(statements).toHaveLength(3);
    await withClient(db(), async (client) => {
      await client.query("BEGIN");
      // Keys wiped first, so an UPDATE that wrote nothing could not pass.
      for (const table of ["redirect_events", "watch_events", "search_events"])
        await client.query(`UPDATE ${table} SET event_key = gen_random_uuid()`);
      for (const statement of statements) await client.query(statement);
      const { rows } = await client.query<{ k: string }>(
        `SELECT event_key::text AS k FROM redirect_events UNION ALL SELECT event_key::text FROM watch_events
         UNION ALL SELECT event_key::text FROM search_events ORDER BY 1`,
      );
      await client.query("ROLLBACK");
      expect(rows.map((r) => r.k)).toEqual(before);
    });
    expect(await keys()).toEqual(before);
  });
});
