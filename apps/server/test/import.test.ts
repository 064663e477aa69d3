import { writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { Readable } from "node:stream";
import { gzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { ImportRejected, importFile } from "../src/jobs/import.js";
import { useTestDatabase } from "./helpers/setup.js";

const db = useTestDatabase({ catalog: false });

const LINES = [
  '{"type":"console","id":1,"name":"Super Nintendo","slug":"snes"}',
  '{"type":"game","id":101,"console_id":1,"display_game_name":"Chrono Trigger","marketplace_game_name":"chrono-trigger","enabled":true,"prices":{"loose":"149.99","complete":"289.00","new":null}}',
  '{"type":"redirect","game_id":101,"user_id":"u1","occurred_at":"2026-11-20T10:00:00Z","condition":"cib","device":"mobile"}',
  '{"type":"watch","game_id":101,"user_id":"u2","created_at":"2026-11-19T08:00:00Z","removed_at":null,"condition":"loose"}',
  '{"type":"search","query":"  Chrono   TRIGGER snes!","user_id":"u3","occurred_at":"2026-11-20T11:00:00Z","source":"pricing","device":"desktop","result_count":12,"condition":"any","game_id":101,"console_id":null,"extra":"ignored"}',
];

const count = async (table: string) =>
  (await db().pool.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${table}`)).rows[0]?.n;

describe("gmi import", () => {
  it("loads a gzip file and standard input, normalizing queries once", async () => {
    const file = path.join(tmpdir(), `gmi-import-${process.pid}.ndjson.gz`);
    await writeFile(file, gzipSync(`${LINES.join("\n")}\n`));
    const report = await importFile(db(), file);
    expect(report.counts).toEqual({ console: 1, game: 1, redirect: 1, watch: 1, search: 1 });
    const { rows } = await db().pool.query("SELECT query, raw_query FROM search_events");
    expect(rows[0]).toEqual({ query: "chrono trigger snes", raw_query: "  Chrono   TRIGGER snes!" });
    const fromStdin = await importFile(db(), "-", () => {}, Readable.from([`${LINES[2]}\n`]));
    expect(fromStdin.counts.redirect).toBe(1);
    expect(await count("redirect_events")).toBe(2);
  });

  it("rejects a bad line with its number and reason, loading nothing of that file", async () => {
    const before = await count("redirect_events");
    const file = path.join(tmpdir(), `gmi-import-bad-${process.pid}.ndjson`);
    await writeFile(file, [LINES[2], LINES[2], '{"type":"redirect","game_id":"x"}'].join("\n"));
    const error = await importFile(db(), file).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ImportRejected);
    expect(error).toMatchObject({ line: 3 });
    expect((error as ImportRejected).reason).toMatch(/game_id/);
    expect(await count("redirect_events")).toBe(before);
  });
});
