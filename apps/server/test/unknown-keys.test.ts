import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { manualClock } from "../src/clock.js";
import { revokeApiKey } from "../src/data/keys.js";
import { generateApiKey } from "../src/domain/auth/api-key.js";
import type { TestApp } from "./helpers/app.js";
import { bearer, startTestApp } from "./helpers/app.js";
import { countingKeyLookups } from "./helpers/key-lookups.js";
import { useTestDatabase } from "./helpers/setup.js";
import { createTenant } from "./helpers/tenant.js";

/**
 * The negative cache of unknown keys (caches/unknown-keys.ts) on two replicas, two apps on one
 * PostgreSQL as in the compose deployment, the key cache on as in production. Nothing tells a
 * replica that a key was created: a new key must work on both at once because its hash cannot be
 * in either negative cache, and these tests show it rather than assume it.
 */
const db = useTestDatabase();
const clock = manualClock();
const replicas: Array<TestApp & { lookups(): number }> = [];
beforeAll(async () => {
  for (let n = 0; n < 2; n++) {
    const counted = countingKeyLookups(db().pool);
    const env = { AUTH_CACHE_TTL_MS: "5000" };
    replicas.push({ ...(await startTestApp(counted.sql, { env, clock })), lookups: counted.lookups });
  }
});
afterAll(async () => {
  for (const replica of replicas) await replica.close();
});

const statusOn = async (replica: TestApp, key: string) =>
  (await replica.app.inject({ url: "/api/v1/games/titles?limit=1", headers: bearer(key) })).statusCode;
const statusesOf = (key: string) => Promise.all(replicas.map((replica) => statusOn(replica, key)));
const lookups = () => replicas.map((replica) => replica.lookups());

describe("unknown keys on two replicas", () => {
  it("cost one lookup each per replica, and a key created right after a flood works on both at once", async () => {
    const flood = Array.from({ length: 300 }, () => generateApiKey().key);
    const before = lookups();
    for (let round = 0; round < 3; round++) {
      for (const key of flood) expect(await statusesOf(key)).toEqual([401, 401]);
    }
    expect(lookups().map((n, i) => n - (before[i] ?? 0))).toEqual([300, 300]);

    // What a negative cache could hide: a key presented before its row existed stays refused for
    // the cache's lifetime, on both replicas, without a lookup.
    const early = generateApiKey();
    expect(await statusesOf(early.key)).toEqual([401, 401]);
    const owner = await createTenant(db().pool);
    await db().pool.query(
      `INSERT INTO api_keys (organization_id, name, key_hash, last_four, scopes)
       VALUES ($1, 'written by hand', $2, $3, $4)`,
      [owner.organizationId, early.hash, early.lastFour, ["games.read"]],
    );
    const atInsert = lookups();
    expect(await statusesOf(early.key)).toEqual([401, 401]);
    expect(lookups()).toEqual(atInsert);
    clock.advance(60_000);
    expect(await statusesOf(early.key)).toEqual([200, 200]);

    // A key made as the service makes every key (fresh randomness, data/keys.ts) was never
    // presented, so no replica holds it as unknown: served at once on both, and found by a lookup.
    const created = await createTenant(db().pool);
    const atCreation = lookups();
    expect(await statusesOf(created.key)).toEqual([200, 200]);
    expect(lookups().map((n, i) => n - (atCreation[i] ?? 0))).toEqual([1, 1]);
  });

  it("keeps a revoked key a known key refused, and a key whose row is gone refused as unknown", async () => {
    const tenant = await createTenant(db().pool);
    expect(await statusesOf(tenant.key)).toEqual([200, 200]);
    await revokeApiKey(db().pool, tenant.keyId, new Date(clock.now()));
    clock.advance(5_000);
    const revoked = await Promise.all(
      replicas.map((replica) =>
        replica.app.inject({ url: "/api/v1/games/titles?limit=1", headers: bearer(tenant.key) }),
      ),
    );
    expect(revoked.map((r) => [r.statusCode, r.json().error.message])).toEqual([
      [401, "The API key has been revoked"],
      [401, "The API key has been revoked"],
    ]);
    // Read again and again past the TTL: a revoked key is a row, never cached as unknown.
    const atRevocation = lookups();
    clock.advance(5_000);
    expect(await statusesOf(tenant.key)).toEqual([401, 401]);
    expect(lookups().map((n, i) => n - (atRevocation[i] ?? 0))).toEqual([1, 1]);

    await db().pool.query("DELETE FROM api_keys WHERE id = $1", [tenant.keyId]);
    clock.advance(5_000);
    expect(await statusesOf(tenant.key)).toEqual([401, 401]);
    const atDeletion = lookups();
    expect(await statusesOf(tenant.key)).toEqual([401, 401]);
    expect(lookups()).toEqual(atDeletion);
  });
});
