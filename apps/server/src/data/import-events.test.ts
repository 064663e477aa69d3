import { describe, expect, it } from "vitest";
import type { RedirectRecord } from "../domain/import/parse-line.js";
import { BlockPool, EventBatch, type KeyedEvent } from "./import-events.js";

const redirect = (i: number): KeyedEvent<RedirectRecord> => ({
  key: i.toString(16).padStart(32, "0"),
  record: {
    type: "redirect",
    eventId: null,
    gameId: 7,
    userId: `user-${i}`,
    occurredAt: "2026-11-01T10:00:00.000Z",
    day: "2026-11-01",
    condition: "cib",
    device: "mobile",
  },
});

/** A batch of `rows` redirects (each ~100 bytes: a 64 KiB block every ~650 rows). */
const fill = (pool: BlockPool, rows: number) => {
  const batch = new EventBatch("redirect", true, pool);
  for (let i = 0; i < rows; i++) batch.add(redirect(i));
  batch.close();
  return batch;
};

describe("the importer's COPY blocks", () => {
  it("reuses a written batch's buffers for the next batch instead of allocating new ones", () => {
    const pool = new BlockPool();
    const first = fill(pool, 5_000);
    expect(first.buffers.length).toBeGreaterThan(3);
    pool.release(first.buffers);
    const second = fill(pool, 5_000);
    // The same buffers again: the import's memory does not grow with the batches it has written.
    expect(second.buffers.every((b) => first.buffers.includes(b))).toBe(true);
    expect(pool.size).toBe(0);
  });

  it("encodes the same bytes into a reused buffer as into a fresh one", () => {
    const pool = new BlockPool();
    const fresh = Buffer.concat(fill(pool, 2_000).blocks);
    const dirty = fill(new BlockPool(), 2_000);
    for (const buffer of dirty.buffers) buffer.fill(0xab);
    pool.release(dirty.buffers);
    expect(Buffer.concat(fill(pool, 2_000).blocks).equals(fresh)).toBe(true);
  });
});
