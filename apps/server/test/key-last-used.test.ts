import { describe, expect, it } from "vitest";
import { keysList } from "../src/cli/commands/keys.js";
import { manualClock } from "../src/clock.js";
import { keyUseRecorder } from "../src/data/key-use.js";
import { revokeApiKey } from "../src/data/keys.js";
import type { Sql } from "../src/data/sql.js";
import { bearer, startTestApp } from "./helpers/app.js";
import { useTestDatabase } from "./helpers/setup.js";
import { createTenant } from "./helpers/tenant.js";

/**
 * `last_used_at` per key (data/key-use.ts): noted in memory on each admitted request, written once
 * a minute per server for every key used since, in one statement; shown by `gmi keys list`.
 */
const db = useTestDatabase();

/** The database as the app sees it, counting the statements that write `last_used_at`. */
const countingWrites = (sql: Sql) => {
  let writes = 0;
  const counted: Sql = {
    query: ((...args: Parameters<Sql["query"]>) => {
      const text = typeof args[0] === "string" ? args[0] : (args[0] as { text?: string }).text;
      if (text?.includes("SET last_used_at")) writes += 1;
      return (sql.query as (...a: unknown[]) => Promise<unknown>)(...args);
    }) as Sql["query"],
  };
  return { sql: counted, writes: () => writes };
};
const lastUsed = async (keyId: number) =>
  (
    await db().pool.query<{ last_used_at: Date | null }>("SELECT last_used_at FROM api_keys WHERE id = $1", [
      keyId,
    ])
  ).rows[0]?.last_used_at ?? null;

describe("last_used_at", () => {
  it("is written without a write per request: every key used since, in one statement a minute", async () => {
    const clock = manualClock(Date.UTC(2026, 10, 27, 9, 30));
    const counted = countingWrites(db().pool);
    const t = await startTestApp(counted.sql, { clock });
    const [a, b, idle] = [
      await createTenant(db().pool),
      await createTenant(db().pool),
      await createTenant(db().pool),
    ];
    for (let n = 0; n < 20; n++) {
      for (const tenant of [a, b]) {
        const answer = await t.app.inject({
          url: "/api/v1/games/titles?limit=1",
          headers: bearer(tenant.key),
        });
        expect(answer.statusCode).toBe(200);
      }
      clock.advance(1_000);
    }
    // A refused request is no use of a key: an unknown key, a revoked one.
    await revokeApiKey(db().pool, idle.keyId, new Date(clock.now() - 60_000));
    expect((await t.app.inject({ url: "/api/v1/games/titles", headers: bearer(idle.key) })).statusCode).toBe(
      401,
    );
    expect(counted.writes()).toBe(0);
    expect(await lastUsed(a.keyId)).toBeNull();

    // The minute's write (also made when the server stops): one statement for both keys.
    await t.close();
    expect(counted.writes()).toBe(1);
    expect(await lastUsed(a.keyId)).toEqual(new Date(Date.UTC(2026, 10, 27, 9, 30, 19)));
    expect(await lastUsed(b.keyId)).toEqual(new Date(Date.UTC(2026, 10, 27, 9, 30, 19)));
    expect(await lastUsed(idle.keyId)).toBeNull();
  });

  it("keeps the latest time whichever server writes last, and writes nothing when nothing was used", async () => {
    const counted = countingWrites(db().pool);
    const tenant = await createTenant(db().pool);
    const errors: unknown[] = [];
    const [early, late] = [0, 1].map(() =>
      keyUseRecorder(counted.sql, { everyMs: 60_000, onError: (error) => errors.push(error) }),
    );
    if (!early || !late) throw new Error("no recorders");
    late.note(tenant.keyId, Date.UTC(2026, 10, 27, 10, 5));
    early.note(tenant.keyId, Date.UTC(2026, 10, 27, 10, 1));
    await late.flush();
    await early.flush();
    expect(await lastUsed(tenant.keyId)).toEqual(new Date(Date.UTC(2026, 10, 27, 10, 5)));
    await Promise.all([early.close(), late.close()]);
    expect(counted.writes()).toBe(2);
    expect(errors).toEqual([]);
  });

  it("keeps what it noted when a write fails, for the next one", async () => {
    const tenant = await createTenant(db().pool);
    let failing = true;
    const flaky: Sql = {
      query: ((...args: Parameters<Sql["query"]>) =>
        failing
          ? Promise.reject(new Error("connection lost"))
          : (db().pool.query as (...a: unknown[]) => Promise<unknown>)(...args)) as Sql["query"],
    };
    const recorder = keyUseRecorder(flaky, { everyMs: 60_000, onError: () => {} });
    recorder.note(tenant.keyId, Date.UTC(2026, 10, 27, 11, 0));
    await expect(recorder.flush()).rejects.toThrow("connection lost");
    failing = false;
    await recorder.close();
    expect(await lastUsed(tenant.keyId)).toEqual(new Date(Date.UTC(2026, 10, 27, 11, 0)));
  });

  it("is shown by `gmi keys list` with scopes, creation, expiry and revocation", async () => {
    const used = await createTenant(db().pool, {
      scopes: ["games.read"],
      expiresAt: new Date("2027-01-31T00:00:00Z"),
    });
    const second = await db().pool.query<{ id: number }>(
      `INSERT INTO api_keys (organization_id, name, key_hash, last_four, scopes, revoked_at, created_at)
       VALUES ($1, 'old', 'x', 'wxyz', '{intelligence.read}', '2026-11-02T08:00:00Z', '2026-10-01T00:00:00Z')
       RETURNING id`,
      [used.organizationId],
    );
    await db().pool.query(
      "UPDATE api_keys SET last_used_at = '2026-11-27T09:41:23.456Z', created_at = '2026-11-01T12:00:00Z' WHERE id = $1",
      [used.keyId],
    );
    const listed = await keysList(db().pool, ["--org", String(used.organizationId)]);
    expect(listed.text).toEqual([
      `${String(used.keyId).padStart(5)}  …${used.key.slice(-4)}  test  [games.read]  created 2026-11-01 12:00Z  expires 2027-01-31 00:00Z  last used 2026-11-27 09:41Z`,
      `${String(second.rows[0]?.id).padStart(5)}  …wxyz  old  [intelligence.read]  created 2026-10-01 00:00Z  no expiry  never used  revoked 2026-11-02 08:00Z`,
    ]);
    expect(
      (listed.json as { keys: Array<{ last_used_at: Date | null }> }).keys.map((k) => k.last_used_at),
    ).toEqual([new Date("2026-11-27T09:41:23.456Z"), null]);
  });
});
