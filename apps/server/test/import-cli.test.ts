import { writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { importCommand } from "../src/cli/commands/import.js";
import { CliError } from "../src/cli/io.js";
import { useTestDatabase } from "./helpers/setup.js";

const db = useTestDatabase({ catalog: false });

const LINES = [
  '{"type":"console","id":1,"name":"Super Nintendo","slug":"snes"}',
  '{"type":"game","id":101,"console_id":1,"display_game_name":"Chrono Trigger","marketplace_game_name":"chrono-trigger"}',
  '{"type":"redirect","game_id":101,"user_id":"u1","occurred_at":"2026-11-20T10:00:00Z"}',
  "{oops",
  '{"type":"redirect","game_id":102,"user_id":"u1","occurred_at":"2026-11-20T10:00:00Z"}',
];

const run = async (args: string[], json = false) => {
  const out: string[] = [];
  const err: string[] = [];
  const io = { stdout: (t: string) => out.push(t), stderr: (t: string) => err.push(t) };
  const result = await importCommand(args, { db: db(), io, json }).catch((e: unknown) => e);
  return { result, out: out.join(""), err: err.join("") };
};

describe("gmi import (command)", () => {
  it("reports each rejected line as FILE:LINE: reason, and new / duplicate / rejected counts", async () => {
    const file = path.join(tmpdir(), `gmi-import-cli-${process.pid}.ndjson`);
    await writeFile(file, `${LINES.join("\n")}\n`);
    const first = await run([file]);
    expect(first.err).toBe(
      `${file}:4: not valid JSON\n${file}:5: game_id: no game 102 in the catalog (import its game line first, or earlier in the same file)\n`,
    );
    expect(first.out).toMatch(
      new RegExp(
        `^${file}: 5 lines: 1 new events, 0 duplicates, 2 rejected, 1 consoles and 1 games upserted in `,
      ),
    );
    expect(first.out).toMatch(/; the next rollup includes them\n$/);
    const again = await run([file, "--json"], true);
    expect(again.result).toMatchObject({
      files: [{ file, new: 0, duplicates: 1, rejected: 2, errors: [{ line: 4 }, { line: 5 }] }],
    });
    expect(again.err).toBe("");
  });

  it("says nothing about the next rollup when a second import of a file adds nothing", async () => {
    const file = path.join(tmpdir(), `gmi-import-cli-twice-${process.pid}.ndjson`);
    await writeFile(file, `${LINES.slice(0, 3).join("\n")}\n`);
    await run([file]);
    const second = await run([file]);
    expect(second.out).toMatch(new RegExp(`^${file}: 3 lines: 0 new events, 1 duplicates, 0 rejected, `));
    expect(second.out).not.toMatch(/rollup/);
  });

  it("aborts a file past --max-errors, naming the flag, and refuses a bad value", async () => {
    const file = path.join(tmpdir(), `gmi-import-cli-max-${process.pid}.ndjson`);
    await writeFile(file, `${LINES.join("\n")}\n`);
    const aborted = await run(["--max-errors", "1", file]);
    expect(aborted.result).toBeInstanceOf(CliError);
    expect((aborted.result as CliError).message).toMatch(
      /more than 1 rejected lines .*nothing from this file was loaded.*--max-errors/,
    );
    const bad = await run(["--max-errors", "-1", file]);
    expect((bad.result as CliError).code).toBe("usage");
    const none = await run([]);
    expect((none.result as CliError).message).toMatch(/at least one FILE/);
  });
});
