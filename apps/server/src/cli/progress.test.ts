import { describe, expect, it } from "vitest";
import { progressBar } from "./progress.js";

const fakeStream = (isTTY: boolean) => {
  const writes: string[] = [];
  return { writes, stream: { isTTY, write: (text: string) => writes.push(text) } };
};

describe("progressBar", () => {
  it("off a terminal: a plain line per interval, none for work shorter than one", () => {
    const { writes, stream } = fakeStream(false);
    let now = 0;
    const bar = progressBar("importing events.ndjson", { stream, now: () => now, everyMs: 5_000 });
    now = 1_000;
    bar.update(100, 1_000, "bytes");
    expect(writes).toEqual([]);
    now = 5_000;
    bar.update(500, 1_000, "bytes");
    now = 7_000;
    bar.update(600, 1_000, "bytes");
    now = 10_000;
    bar.update(2_000, null, "lines");
    bar.done();
    expect(writes).toEqual([
      "importing events.ndjson: 500 of 1,000 bytes (50%), 100/s\n",
      "importing events.ndjson: 2,000 lines, 200/s\n",
    ]);
  });

  it("on a terminal: one redrawn line, cleared when done", () => {
    const { writes, stream } = fakeStream(true);
    let now = 0;
    const bar = progressBar("rollup", { stream, now: () => now });
    now = 150;
    bar.update(1, 4, "dates");
    bar.done();
    expect(writes[0]).toMatch(/^\rrollup \[#{8}\.{22}\] 25% 1 dates/);
    expect(writes.at(-1)).toBe("\r\x1b[K");
    expect(writes.every((w) => !w.includes("\n"))).toBe(true);
  });
});
