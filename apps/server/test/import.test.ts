import { writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { Readable } from "node:stream";
import { gzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { manualClock } from "../src/clock.js";
import { ImportAborted, type ImportOptions, importFile } from "../src/jobs/import.js";
import { refreshCells } from "../src/rollup/event-cells.js";
import { useTestDatabase } from "./helpers/setup.js";

const db = useTestDatabase({ catalog: false });

const CONSOLE = '{"type":"console","id":1,"name":"Super Nintendo","slug":"snes"}';
const GAME =
  '{"type":"game","id":101,"console_id":1,"display_game_name":"Chrono Trigger","marketplace_game_name":"chrono-trigger","enabled":true,"prices":{"loose":"149.99","complete":"289.00","new":null}}';
const redirect = (user: string, at = "2026-11-20T10:00:00Z", extra = "") =>
  `{"type":"redirect","game_id":101,"user_id":"${user}","occurred_at":"${at}","condition":"cib","device":"mobile"${extra}}`;
const WATCH =
  '{"type":"watch","game_id":101,"user_id":"u2","created_at":"2026-11-19T08:00:00Z","removed_at":null,"condition":"loose"}';
const SEARCH =
  '{"type":"search","query":"  Chrono   TRIGGER snes!","user_id":"u3","occurred_at":"2026-11-20T11:00:00Z","source":"pricing","device":"desktop","result_count":12,"condition":"any","game_id":101,"console_id":null,"extra":"ignored"}';

/** The server's clock in these tests: the events above are in its past. */
const clock = manualClock(new Date("2026-11-21T12:00:00Z"));

let fileCount = 0;
const fileOf = async (lines: string[], options: { gzip?: boolean; eol?: string } = {}) => {
  fileCount += 1;
  const file = path.join(
    tmpdir(),
    `gmi-import-${process.pid}-${fileCount}.ndjson${options.gzip ? ".gz" : ""}`,
  );
  const text = `${lines.join(options.eol ?? "\n")}${options.eol ?? "\n"}`;
  await writeFile(file, options.gzip ? gzipSync(text) : text);
  return file;
};
const load = async (lines: string[], options: Omit<ImportOptions, "onProgress"> = {}) =>
  importFile(db(), await fileOf(lines), () => {}, undefined, { clock, ...options });

const count = async (table: string) =>
  (await db().pool.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${table}`)).rows[0]?.n;
/** Redirects in the daily cells, once the rollup's first step has rebuilt the days imports marked. */
const cellRedirects = async () => {
  await refreshCells(db().pool);
  const { rows } = await db().pool.query<{ n: number }>(
    "SELECT COALESCE(sum(redirects), 0)::int AS n FROM redirect_day_cells",
  );
  return rows[0]?.n;
};

describe("gmi import", () => {
  it("loads a gzip file and standard input, normalizing queries once", async () => {
    const file = await fileOf([CONSOLE, GAME, redirect("u1"), WATCH, SEARCH], { gzip: true });
    const report = await importFile(db(), file, () => {}, undefined, { clock });
    expect(report.counts).toEqual({ console: 1, game: 1, redirect: 1, watch: 1, search: 1 });
    expect(report).toMatchObject({ new: 3, duplicates: 0, rejected: 0 });
    const { rows } = await db().pool.query("SELECT query, raw_query FROM search_events");
    expect(rows[0]).toEqual({ query: "chrono trigger snes", raw_query: "  Chrono   TRIGGER snes!" });
    const fromStdin = await importFile(db(), "-", () => {}, Readable.from([`${redirect("stdin")}\r\n`]), {
      clock,
    });
    expect(fromStdin).toMatchObject({ new: 1, duplicates: 0 });
    expect(await count("redirect_events")).toBe(2);
  });

  it("stores no event twice: a file loaded again, or overlapping, changes no figure", async () => {
    const lines = [redirect("a1"), redirect("a2"), WATCH, SEARCH];
    const first = await load(lines);
    const before = { redirects: await count("redirect_events"), cells: await cellRedirects() };
    const again = await load(lines);
    expect(again).toMatchObject({ new: 0, duplicates: 4, rejected: 0 });
    // Overlapping: half old, half new, and a line repeated inside the file.
    const overlap = await load([redirect("a2"), redirect("a3"), redirect("a3"), redirect("a4")]);
    expect(overlap).toMatchObject({ new: 2, duplicates: 2 });
    expect(await count("redirect_events")).toBe((before.redirects ?? 0) + 2);
    expect(await cellRedirects()).toBe((before.cells ?? 0) + 2);
    expect(first.new + again.new).toBe(first.new);
  });

  it("dedupes on event_id when a line has one: identical content with two ids is two events", async () => {
    const before = await count("redirect_events");
    const lines = [
      redirect("twin", "2026-11-20T09:00:00Z", ',"event_id":"m-1"'),
      redirect("twin", "2026-11-20T09:00:00Z", ',"event_id":"m-2"'),
      redirect("other", "2026-11-20T09:30:00Z", ',"event_id":"m-1"'),
    ];
    expect(await load(lines)).toMatchObject({ new: 2, duplicates: 1 });
    expect(await load(lines)).toMatchObject({ new: 0, duplicates: 3 });
    expect(await count("redirect_events")).toBe((before ?? 0) + 2);
  });

  it("records an alert's removal when a later export carries it, instead of a second alert", async () => {
    const alert = (removed: string) =>
      `{"type":"watch","game_id":101,"user_id":"w9","created_at":"2026-11-18T08:00:00Z","removed_at":${removed},"condition":"new"}`;
    await load([alert("null")]);
    const report = await load([alert('"2026-11-20T08:00:00Z"')]);
    expect(report).toMatchObject({ new: 0, duplicates: 1, removalsRecorded: 1 });
    const { rows } = await db().pool.query("SELECT removed_at FROM watch_events WHERE user_id = 'w9'");
    expect(rows).toEqual([{ removed_at: new Date("2026-11-20T08:00:00Z") }]);
  });

  it("rejects bad, future-dated and unknown-game lines by number, loading the rest", async () => {
    const before = await count("redirect_events");
    const rejected: number[] = [];
    const report = await load(
      [
        redirect("r1"),
        '{"type":"redirect","game_id":"x"}',
        "not json",
        redirect("r2", "2026-11-22T00:00:01Z"),
        '{"type":"redirect","game_id":999,"user_id":"r3","occurred_at":"2026-11-20T10:00:00Z"}',
        redirect("r4", "2026-11-21T23:59:59Z"),
      ],
      { onReject: (e) => rejected.push(e.line) },
    );
    expect(report).toMatchObject({ new: 2, rejected: 4 });
    expect(rejected).toEqual([2, 3, 4, 5]);
    expect(report.errors.map((e) => e.line)).toEqual([2, 3, 4, 5]);
    expect(report.errors[0]?.reason).toMatch(/game_id/);
    expect(report.errors[2]?.reason).toMatch(/2026-11-22 is after today \(2026-11-21/);
    expect(report.errors[3]?.reason).toMatch(/no game 999/);
    expect(await count("redirect_events")).toBe((before ?? 0) + 2);
  });

  it("accepts events of a game declared later in the same file, and CRLF line ends", async () => {
    const game =
      '{"type":"game","id":202,"console_id":1,"display_game_name":"EarthBound","marketplace_game_name":"earthbound"}';
    const file = await fileOf(
      [game, '{"type":"redirect","game_id":202,"user_id":"e1","occurred_at":"2026-11-20T10:00:00Z"}'],
      { eol: "\r\n" },
    );
    const report = await importFile(db(), file, () => {}, undefined, { clock });
    expect(report).toMatchObject({ new: 1, rejected: 0 });
  });

  it("aborts past --max-errors with nothing of the file loaded", async () => {
    const before = { redirects: await count("redirect_events"), games: await count("games") };
    const game =
      '{"type":"game","id":303,"console_id":1,"display_game_name":"Secret of Mana","marketplace_game_name":"secret-of-mana"}';
    const lines = [game, redirect("m1"), "{", redirect("m2"), "[]", redirect("m3")];
    const error = await load(lines, { maxErrors: 1 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ImportAborted);
    expect((error as ImportAborted).errors.map((e) => e.line)).toEqual([3, 5]);
    expect(await count("redirect_events")).toBe(before.redirects);
    expect(await count("games")).toBe(before.games);
    // The same file within the limit loads without its two bad lines.
    expect(await load(lines, { maxErrors: 2 })).toMatchObject({ new: 3, rejected: 2 });
  });

  it("refuses an over-long line without holding it, and a broken gzip stream whole", async () => {
    const long = `{"type":"redirect","pad":"${"x".repeat(200_000)}"}`;
    const report = await load([long, redirect("l1")]);
    expect(report).toMatchObject({ new: 1, rejected: 1 });
    expect(report.errors[0]).toEqual({ line: 1, reason: "line longer than 65536 characters" });
    const broken = path.join(tmpdir(), `gmi-import-${process.pid}-broken.gz`);
    await writeFile(broken, gzipSync(`${redirect("g1")}\n${redirect("g2")}\n`).subarray(0, 30));
    const before = await count("redirect_events");
    await expect(importFile(db(), broken, () => {}, undefined, { clock })).rejects.toThrow(/gzip/);
    expect(await count("redirect_events")).toBe(before);
  });
});
