import { closeSync, mkdtempSync, openSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { batchedLineWriter } from "./line-writer.js";

const opened: number[] = [];
afterEach(() => {
  for (const fd of opened.splice(0)) closeSync(fd);
});

const logFile = () => {
  const file = path.join(mkdtempSync(path.join(tmpdir(), "gmi-log-")), "out.log");
  const fd = openSync(file, "w");
  opened.push(fd);
  return { fd, read: () => readFileSync(file, "utf8") };
};

describe("batchedLineWriter", () => {
  it("holds lines until a block is full, then writes them in order", () => {
    const { fd, read } = logFile();
    const writer = batchedLineWriter(fd, { maxBytes: 20, flushMs: 60_000 });
    writer.write("first line\n");
    expect(read()).toBe("");
    writer.write("second line\n");
    expect(read()).toBe("first line\nsecond line\n");
  });

  it("writes what it holds on flushSync, multi-byte characters intact", () => {
    const { fd, read } = logFile();
    const writer = batchedLineWriter(fd, { maxBytes: 16_384, flushMs: 60_000 });
    writer.write('{"msg":"Pokémon — 151"}\n');
    writer.flushSync();
    writer.flushSync();
    expect(read()).toBe('{"msg":"Pokémon — 151"}\n');
  });

  it("writes on its timer without being asked", async () => {
    const { fd, read } = logFile();
    const writer = batchedLineWriter(fd, { maxBytes: 16_384, flushMs: 20 });
    writer.write("late line\n");
    await new Promise((resolve) => setTimeout(resolve, 80));
    expect(read()).toBe("late line\n");
  });

  it("drops a block it cannot write instead of throwing", () => {
    const { fd } = logFile();
    const writer = batchedLineWriter(fd, { maxBytes: 16_384, flushMs: 60_000 });
    closeSync(opened.pop() ?? fd);
    writer.write("nowhere to go\n");
    expect(() => writer.flushSync()).not.toThrow();
  });
});
