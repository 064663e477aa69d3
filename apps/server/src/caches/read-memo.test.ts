import { describe, expect, it } from "vitest";
import { manualClock } from "../clock.js";
import { readCache } from "./read-cache.js";
import { memoizedReads } from "./read-memo.js";

/** A reader that counts its reads and answers one game, or fails when told. */
const countingReader = () => {
  const calls: string[] = [];
  let fail = false;
  const reader = {
    findGameById: async (id: number) => {
      calls.push(`game ${id}`);
      if (fail) throw new Error("down");
      return { id };
    },
    findGamesBySlug: async (slug: string) => {
      calls.push(`slug ${slug}`);
      return [{ slug }];
    },
  };
  return { reader, calls, failNext: (value: boolean) => (fail = value) };
};

describe("memoizedReads", () => {
  it("answers identical reads from memory within the TTL, and one read for a burst", async () => {
    const clock = manualClock(0);
    const fake = countingReader();
    const reader = memoizedReads(fake.reader, readCache(clock), 1_000);
    await Promise.all([reader.findGameById(1), reader.findGameById(1), reader.findGameById(1)]);
    expect(fake.calls).toHaveLength(1);
    await reader.findGameById(2);
    expect(fake.calls).toHaveLength(2);
    clock.advance(1_000);
    await reader.findGameById(1);
    expect(fake.calls).toHaveLength(3);
  });

  it("keys each read by its method and arguments", async () => {
    const fake = countingReader();
    const reader = memoizedReads(fake.reader, readCache(manualClock(0)), 1_000);
    expect(await reader.findGameById(1)).toEqual({ id: 1 });
    expect(await reader.findGamesBySlug("1")).toEqual([{ slug: "1" }]);
    expect(await reader.findGameById(1)).toEqual({ id: 1 });
    expect(fake.calls).toEqual(["game 1", "slug 1"]);
  });

  it("does not remember failures, and ttl 0 disables the cache", async () => {
    const clock = manualClock(0);
    const fake = countingReader();
    const reader = memoizedReads(fake.reader, readCache(clock), 1_000);
    fake.failNext(true);
    await expect(reader.findGameById(1)).rejects.toThrow("down");
    fake.failNext(false);
    await expect(reader.findGameById(1)).resolves.toEqual({ id: 1 });
    const uncached = memoizedReads(fake.reader, readCache(clock), 0);
    await uncached.findGameById(1);
    await uncached.findGameById(1);
    expect(fake.calls).toHaveLength(4);
  });
});
