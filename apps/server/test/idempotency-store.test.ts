import { randomUUID } from "node:crypto";
import type pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Claim, ClaimResult } from "../src/data/idempotency.js";
import {
  claimKey,
  findRecord,
  markPaid,
  purgeExpired,
  releaseClaim,
  renewClaim,
  storeResponse,
} from "../src/data/idempotency.js";
import { openPool } from "../src/db/open.js";
import { LEASE_MS, RETENTION_MS } from "../src/domain/idempotency/policy.js";
import { ignoreTerminationOnDrop } from "./helpers/batch.js";
import { useTestDatabase } from "./helpers/setup.js";
import { createTenant } from "./helpers/tenant.js";

const db = useTestDatabase({ catalog: false });
beforeAll(() => ignoreTerminationOnDrop(db().pool));
const T0 = Date.UTC(2026, 5, 15, 12);
// Organizations are only a namespace here: each test takes its own id.
let org = 0;
const nextOrg = () => ++org;

const response = (text: string) => ({
  status: 207,
  headers: { "content-type": "application/json; charset=utf-8" },
  body: Buffer.from(text),
});

const claimed = (result: ClaimResult): Claim => {
  if (result.kind !== "claimed") throw new Error(`expected a claim, got ${result.kind}`);
  return result.claim;
};

describe("claim, store, replay, reuse", () => {
  it("walks the spec's table: new → in flight (409) → stored (replay, 422 reuse)", async () => {
    const sql = db().pool;
    const organizationId = nextOrg();
    const input = { organizationId, key: "k-1", fingerprint: "A", now: T0 };
    const first = await claimKey(sql, input);
    expect(first).toMatchObject({ kind: "claimed", takenOver: false });
    expect(await claimKey(sql, { ...input, now: T0 + 100 })).toEqual({ kind: "conflict", retryAfter: 2 });
    // Any payload is a 409 while the original is in flight.
    expect((await claimKey(sql, { ...input, fingerprint: "B" })).kind).toBe("conflict");

    // Bytes that are not valid UTF-8 survive: the body is stored as bytea, not text.
    const bytes = Buffer.concat([Buffer.from('{"data":"é"}'), Buffer.from([0x00, 0xff, 0xfe])]);
    const stored = { ...response(""), body: bytes };
    expect(await storeResponse(sql, claimed(first), stored, T0 + 500)).toBe(true);

    const replay = await claimKey(sql, { ...input, now: T0 + 1_000 });
    if (replay.kind !== "replay") throw new Error(`expected a replay, got ${replay.kind}`);
    expect(replay.response.status).toBe(207);
    expect(replay.response.headers).toEqual(stored.headers);
    expect(Buffer.compare(replay.response.body, bytes)).toBe(0);
    expect(await claimKey(sql, { ...input, fingerprint: "B", now: T0 + 1_000 })).toEqual({ kind: "reuse" });
  });

  it("keys are namespaced per organization", async () => {
    const sql = db().pool;
    const a = nextOrg();
    const b = nextOrg();
    claimed(await claimKey(sql, { organizationId: a, key: "shared", fingerprint: "A", now: T0 }));
    expect((await claimKey(sql, { organizationId: b, key: "shared", fingerprint: "B", now: T0 })).kind).toBe(
      "claimed",
    );
  });

  it("a paid mark carrying units writes both in one statement, once however often it is tried", async () => {
    const sql = db().pool;
    const { organizationId } = await createTenant(sql, { plan: "pro" });
    const input = { organizationId, key: "k-units", fingerprint: "A", now: T0 };
    const claim = claimed(await claimKey(sql, input));
    const units = { id: randomUUID(), counts: [{ organizationId, month: "2026-06", units: 100 }] };
    const used = async () =>
      (await sql.query("SELECT used FROM usage_months WHERE organization_id = $1", [organizationId])).rows[0]
        ?.used;
    await markPaid(sql, claim, "A", units);
    expect(await findRecord(sql, organizationId, "k-units")).toMatchObject({ paidFingerprint: "A" });
    expect(Number(await used())).toBe(100);
    // Tried again (its answer lost): the units are not added twice.
    await markPaid(sql, claim, "A", units);
    expect(Number(await used())).toBe(100);
    // A mark that cannot be written (a value PostgreSQL refuses) writes no units either.
    const broken = { id: "not-a-uuid", counts: [{ organizationId, month: "2026-06", units: 7 }] };
    await expect(markPaid(sql, claim, "A", broken)).rejects.toThrow();
    expect(Number(await used())).toBe(100);
  });

  it("a paid key released after a failure is claimable at once, prepaid for the same request only", async () => {
    const sql = db().pool;
    const input = { organizationId: nextOrg(), key: "k-paid", fingerprint: "A", now: T0 };
    const first = claimed(await claimKey(sql, input));
    await markPaid(sql, first, "A", null);
    expect(await releaseClaim(sql, first, T0)).toBe(true);
    expect(await claimKey(sql, input)).toMatchObject({ kind: "claimed", takenOver: true, prepaid: true });
    const other = { ...input, key: "k-paid-2" };
    const second = claimed(await claimKey(sql, other));
    await markPaid(sql, second, "A", null);
    await releaseClaim(sql, second, T0);
    expect(await claimKey(sql, { ...other, fingerprint: "B" })).toMatchObject({
      kind: "claimed",
      prepaid: false,
    });
  });

  it("a released key is free again, and the old holder can no longer write", async () => {
    const sql = db().pool;
    const input = { organizationId: nextOrg(), key: "k-rel", fingerprint: "A", now: T0 };
    const claim = claimed(await claimKey(sql, input));
    expect(await releaseClaim(sql, claim, T0)).toBe(true);
    expect(await findRecord(sql, input.organizationId, input.key)).toBeNull();
    const again = await claimKey(sql, { ...input, fingerprint: "B" });
    expect(again).toMatchObject({ kind: "claimed", takenOver: false });
    expect(await storeResponse(sql, claim, response("late"), T0)).toBe(false);
    expect(await releaseClaim(sql, claim, T0)).toBe(false);
  });
});

describe("concurrency", () => {
  // Two pools stand for two server instances, opened as a server opens its own (its pool size
  // too: the embedded database's socket takes 16 connections at most); 50 requests race for one key.
  const pools: pg.Pool[] = [];
  beforeAll(() => {
    for (let i = 0; i < 2; i++) pools.push(openPool(db().url, { embedded: db().embedded }));
  });
  afterAll(async () => {
    await Promise.all(pools.map((p) => p.end()));
  });

  const race = (input: { organizationId: number; key: string; fingerprint: string; now: number }) =>
    Promise.all(Array.from({ length: 50 }, (_, i) => claimKey(pools[i % 2] as pg.Pool, input)));

  it("50 simultaneous claims of a new key: exactly one wins, the rest get 409", async () => {
    const results = await race({ organizationId: nextOrg(), key: "hot", fingerprint: "A", now: T0 });
    expect(results.filter((r) => r.kind === "claimed")).toHaveLength(1);
    expect(results.filter((r) => r.kind === "conflict")).toHaveLength(49);
  });

  it("50 simultaneous takeovers of a lapsed lease: exactly one wins", async () => {
    const input = { organizationId: nextOrg(), key: "lapsed", fingerprint: "A", now: T0 };
    claimed(await claimKey(db().pool, input));
    const results = await race({ ...input, now: T0 + LEASE_MS });
    const winners = results.filter((r) => r.kind === "claimed");
    expect(winners).toEqual([expect.objectContaining({ takenOver: true })]);
  });

  it("50 simultaneous claims of an expired stored key: exactly one wins", async () => {
    const input = { organizationId: nextOrg(), key: "old", fingerprint: "A", now: T0 };
    await storeResponse(db().pool, claimed(await claimKey(db().pool, input)), response("{}"), T0);
    const results = await race({ ...input, fingerprint: "B", now: T0 + RETENTION_MS });
    expect(results.filter((r) => r.kind === "claimed")).toHaveLength(1);
  });
});

describe("lease", () => {
  it("a holder that stops renewing loses the key after LEASE_MS; it can then neither store nor renew", async () => {
    const sql = db().pool;
    const input = { organizationId: nextOrg(), key: "dead", fingerprint: "A", now: T0 };
    const dead = claimed(await claimKey(sql, input));
    expect((await claimKey(sql, { ...input, now: T0 + LEASE_MS - 1 })).kind).toBe("conflict");
    const next = await claimKey(sql, { ...input, fingerprint: "B", now: T0 + LEASE_MS });
    expect(next).toMatchObject({ kind: "claimed", takenOver: true });
    expect(await storeResponse(sql, dead, response("stale"), T0 + LEASE_MS)).toBe(false);
    expect(await renewClaim(sql, dead, T0 + LEASE_MS)).toBe(false);
    expect(await storeResponse(sql, claimed(next), response("fresh"), T0 + LEASE_MS + 1)).toBe(true);
    const record = await findRecord(sql, input.organizationId, input.key);
    expect(record).toMatchObject({ state: "stored", fingerprint: "B" });
  });

  it("a renewed lease keeps the key past the first LEASE_MS", async () => {
    const sql = db().pool;
    const input = { organizationId: nextOrg(), key: "slow", fingerprint: "A", now: T0 };
    const holder = claimed(await claimKey(sql, input));
    expect(await renewClaim(sql, holder, T0 + LEASE_MS - 1_000)).toBe(true);
    expect((await claimKey(sql, { ...input, now: T0 + LEASE_MS + 1_000 })).kind).toBe("conflict");
    expect((await claimKey(sql, { ...input, now: T0 + 2 * LEASE_MS })).kind).toBe("claimed");
  });
});

describe("24 hours", () => {
  it("a stored response replays until 24 h after it was stored, then the key is fresh", async () => {
    const sql = db().pool;
    const input = { organizationId: nextOrg(), key: "day", fingerprint: "A", now: T0 };
    const storedAt = T0 + 2_000;
    await storeResponse(sql, claimed(await claimKey(sql, input)), response("{}"), storedAt);
    expect((await claimKey(sql, { ...input, now: storedAt + RETENTION_MS - 1 })).kind).toBe("replay");
    expect((await claimKey(sql, { ...input, fingerprint: "B", now: storedAt + RETENTION_MS - 1 })).kind).toBe(
      "reuse",
    );
    expect(await claimKey(sql, { ...input, fingerprint: "B", now: storedAt + RETENTION_MS })).toMatchObject({
      kind: "claimed",
      takenOver: true,
    });
  });

  it("purge deletes expired records only", async () => {
    const sql = db().pool;
    const organizationId = nextOrg();
    for (const [key, storedAt] of [
      ["p-old", T0],
      ["p-older", T0 - 1_000],
      ["p-new", T0 + 60_000],
    ] as const) {
      const claim = claimed(await claimKey(sql, { organizationId, key, fingerprint: "A", now: storedAt }));
      await storeResponse(sql, claim, response("{}"), storedAt);
    }
    // Purge is global: count only this organization's rows.
    await purgeExpired(sql, T0 + RETENTION_MS);
    const { rows } = await sql.query<{ key: string }>(
      "SELECT key FROM idempotency_records WHERE organization_id = $1 ORDER BY key",
      [organizationId],
    );
    expect(rows.map((r) => r.key)).toEqual(["p-new"]);
  });
});
