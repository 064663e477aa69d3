import { describe, expect, it } from "vitest";
import { manualClock } from "../clock.js";
import { catalogReader } from "./catalog-reader.js";
import type { Sql } from "./sql.js";

/** A fake pool that counts queries and answers one game. */
const fakeSql = () => {
  const calls: string[] = [];
  let fail = false;
  const sql = {
    query: async (query: string | { text: string }) => {
      calls.push(typeof query === "string" ? query : query.text);
      if (fail) throw new Error("down");
      return { rows: [{ id: 1 }] };
    },
  } as unknown as Sql;
  return { sql, calls, failNext: (value: boolean) => (fail = value) };
};

describe("catalogReader", () => {
  it("answers identical reads from memory within the TTL, and one query for a burst", async () => {
    const clock = manualClock(0);
    const fake = fakeSql();
    const reader = catalogReader(fake.sql, { ttlMs: 1_000, clock });
    await Promise.all([reader.findGameById(1), reader.findGameById(1), reader.findGameById(1)]);
    expect(fake.calls).toHaveLength(1);
    await reader.findGameById(2);
    expect(fake.calls).toHaveLength(2);
    clock.advance(1_000);
    await reader.findGameById(1);
    expect(fake.calls).toHaveLength(3);
  });

  it("does not remember failures, and ttl 0 disables the cache", async () => {
    const clock = manualClock(0);
    const fake = fakeSql();
    const reader = catalogReader(fake.sql, { ttlMs: 1_000, clock });
    fake.failNext(true);
    await expect(reader.findGameById(1)).rejects.toThrow("down");
    fake.failNext(false);
    await expect(reader.findGameById(1)).resolves.toEqual({ id: 1 });
    const uncached = catalogReader(fake.sql, { ttlMs: 0, clock });
    await uncached.findGameById(1);
    await uncached.findGameById(1);
    expect(fake.calls).toHaveLength(4);
  });
});
