import { describe, expect, it, vi } from "vitest";
import type { Sql } from "../src/data/sql.js";
import { isDatabaseUnavailable } from "../src/data/unavailable.js";
import type { UsageWrite } from "../src/data/usage-writes.js";
import { usageWriteStatement } from "../src/data/usage-writes.js";
import { IDLE_FLUSHES, leaseExtra } from "../src/domain/limits/lease.js";
import { pgUsageStore } from "../src/metering/postgres-quota.js";
import type { UsageStore } from "../src/metering/quota-store.js";
import { waitFor } from "./faults/processes.js";
import { useTestDatabase } from "./helpers/setup.js";
import { createTenant } from "./helpers/tenant.js";

const db = useTestDatabase({ catalog: false });
const MONTH = "2026-06";

const stored = async (org: number) => {
  const { rows } = await db().pool.query<{ used: string }>(
    "SELECT used::text FROM usage_months WHERE organization_id = $1 AND month = $2",
    [org, MONTH],
  );
  return Number(rows[0]?.used ?? 0);
};

/** A server's store that never flushes on its own: the test decides when (or whether) it does. */
const replica = () => pgUsageStore(db().pool, { flushMs: 3_600_000 });

/** Charges one unit at a time until refused; the number admitted. */
const drain = async (store: UsageStore, org: number, quota: number, cost = 1) => {
  let admitted = 0;
  while ((await store.consume(org, MONTH, cost, quota)).admitted) admitted += cost;
  return admitted;
};

/**
 * The test database, with quota reservations (the statement that locks the row) waiting at a gate
 * while it is held; `failing`: a reservation let through then fails, as on a lost connection.
 */
const gatedReservations = () => {
  const pool = db().pool;
  let gate: Promise<void> | null = null;
  let release = () => {};
  const control = {
    failing: false,
    hold() {
      gate = new Promise((resolve) => {
        release = () => {
          gate = null;
          resolve();
        };
      });
    },
    open: () => release(),
    sql: {
      query: ((config: unknown, ...rest: unknown[]) => {
        const run = () =>
          (pool.query as (...args: unknown[]) => Promise<unknown>).call(pool, config, ...rest);
        const text =
          typeof config === "object" && config !== null ? String((config as { text?: unknown }).text) : "";
        if (!gate || !text.includes("FOR UPDATE")) return run();
        return gate.then(() => (control.failing ? Promise.reject(new Error("connection lost")) : run()));
      }) as Sql["query"],
    },
  };
  return control;
};

describe("lease size", () => {
  it("none when idle, else two intervals of recent spend, at least 100, at most 1/32 of what is left", () => {
    expect(leaseExtra(0, 10_000, 0, 1)).toBe(0);
    expect(leaseExtra(3, 10_000, 0, 1)).toBe(100);
    expect(leaseExtra(120, 10_000, 0, 1)).toBe(240);
    expect(leaseExtra(5_000, 10_000, 0, 1)).toBe(312);
    expect(leaseExtra(50, 10_000, 9_970, 1)).toBe(0);
  });
});

describe("quota leases (hard-capped plans)", () => {
  it("one server: a busy organization is served from a lease, and refused exactly at the quota", async () => {
    const { organizationId: org } = await createTenant(db().pool, { plan: "free" });
    const store = replica();
    try {
      // A first interval counted one by one, then leases.
      for (let i = 0; i < 40; i++) expect((await store.consume(org, MONTH, 1, 10_000)).admitted).toBe(true);
      expect(await stored(org)).toBe(40);
      await store.flush();
      expect((await store.consume(org, MONTH, 1, 10_000)).admitted).toBe(true);
      // Reserved ahead: the row counts the lease, /me what was served.
      expect(await stored(org)).toBe(41 + 100);
      expect(await store.used(org, MONTH)).toBe(41);
      const refusedAt = (await drain(store, org, 10_000)) + 41;
      expect(refusedAt).toBe(10_000);
      expect(await store.consume(org, MONTH, 1, 10_000)).toEqual({ admitted: false, used: 10_000 });
      await store.flush();
      expect(await stored(org)).toBe(10_000);
    } finally {
      await store.close();
    }
  });

  it("an organization idle for IDLE_FLUSHES intervals in a row gets its unspent units back in the row", async () => {
    const { organizationId: org } = await createTenant(db().pool, { plan: "free" });
    const store = replica();
    try {
      await store.consume(org, MONTH, 1, 10_000);
      await store.flush();
      for (let i = 0; i < 3; i++) await store.consume(org, MONTH, 1, 10_000);
      // 1 counted alone, then 1 + 100 reserved, of which 2 more spent.
      expect(await stored(org)).toBe(102);
      await store.flush(); // an interval with requests: the lease is kept
      for (let i = 1; i < IDLE_FLUSHES; i++) await store.flush(); // idle, not long enough
      expect(await stored(org)).toBe(102);
      await store.flush(); // the IDLE_FLUSHES-th idle one: given back
      expect(await stored(org)).toBe(4);
      expect(await store.used(org, MONTH)).toBe(4);
    } finally {
      await store.close();
    }
  });

  it("a slow organization (a request every interval or two) keeps its lease: one reservation for many requests", async () => {
    const { organizationId: org } = await createTenant(db().pool, { plan: "starter" });
    const store = replica();
    try {
      await store.consume(org, MONTH, 1, 250_000);
      await store.flush();
      await store.consume(org, MONTH, 1, 250_000); // reserves 1 + 100
      const reserved = await stored(org);
      expect(reserved).toBe(102);
      for (let i = 0; i < 40; i++) {
        // Gaps of up to IDLE_FLUSHES - 1 idle intervals between requests.
        for (let f = 0; f < (i % IDLE_FLUSHES) + 1; f++) await store.flush();
        expect((await store.consume(org, MONTH, 1, 250_000)).admitted).toBe(true);
      }
      // Served from the one lease: no reservation, no release.
      expect(await stored(org)).toBe(reserved);
      expect(await store.used(org, MONTH)).toBe(42);
    } finally {
      await store.close();
    }
  });

  it("an interval that ends while a reservation is in flight still sizes the lease on its spend", async () => {
    const { organizationId: org } = await createTenant(db().pool, { plan: "free" });
    const gated = gatedReservations();
    const store = pgUsageStore(gated.sql, { flushMs: 3_600_000 });
    try {
      // The first interval is counted one reservation at a time: under load one is nearly always
      // in flight, so an interval that ends then must still count what was spent.
      for (let i = 0; i < 3; i++) await store.consume(org, MONTH, 1, 10_000);
      gated.hold();
      const inFlight = store.consume(org, MONTH, 1, 10_000);
      await store.flush();
      gated.open();
      await inFlight;
      expect(await stored(org)).toBe(4);
      // Sized on the interval's spend: the next reservation is a lease (1 + 100), not one unit.
      await store.consume(org, MONTH, 1, 10_000);
      expect(await stored(org)).toBe(105);
    } finally {
      gated.open();
      await store.close();
    }
  });

  it("a batch that does not fit is refused whole, and what is left still serves smaller requests", async () => {
    const { organizationId: org } = await createTenant(db().pool, { plan: "free" });
    const store = replica();
    try {
      expect((await store.consume(org, MONTH, 95, 100)).admitted).toBe(true);
      expect(await store.consume(org, MONTH, 10, 100)).toEqual({ admitted: false, used: 95 });
      expect((await store.consume(org, MONTH, 5, 100)).admitted).toBe(true);
      await store.flush();
      expect(await stored(org)).toBe(100);
    } finally {
      await store.close();
    }
  });

  it("a refusal reports the count as this server sees it: its own leased units, not spent, are not used", async () => {
    const { organizationId: org } = await createTenant(db().pool, { plan: "free" });
    const store = replica();
    try {
      await store.consume(org, MONTH, 1, 10_000);
      await store.flush();
      await store.consume(org, MONTH, 1, 10_000); // 1 + 100 reserved
      expect(await stored(org)).toBe(102);
      expect(await store.consume(org, MONTH, 9_999, 10_000)).toEqual({ admitted: false, used: 2 });
      expect(await store.consume(org, MONTH, 10_001, 10_000)).toEqual({ admitted: false, used: 2 });
    } finally {
      await store.close();
    }
  });

  it("two servers at once with warm leases never admit past the quota; given back, the rest is served", async () => {
    const { organizationId: org } = await createTenant(db().pool, { plan: "free" });
    const quota = 2_000;
    const a = replica();
    const b = replica();
    try {
      // Warm both: each holds a lease.
      for (const store of [a, b]) {
        await Promise.all(Array.from({ length: 100 }, () => store.consume(org, MONTH, 1, quota)));
        await store.flush();
      }
      const burst = (store: UsageStore) =>
        Promise.all(Array.from({ length: 1_000 }, () => store.consume(org, MONTH, 1, quota)));
      const results = (await Promise.all([burst(a), burst(b)])).flat();
      const admitted = 200 + results.filter((r) => r.admitted).length;
      expect(admitted).toBeLessThanOrEqual(quota);
      expect(await stored(org)).toBeLessThanOrEqual(quota);
      // Leases given back (one interval with requests, then IDLE_FLUSHES idle ones): every unit
      // not served is available again, to either server.
      for (let i = 0; i <= IDLE_FLUSHES; i++) {
        await a.flush();
        await b.flush();
      }
      expect(await stored(org)).toBe(admitted);
      const rest = (await drain(a, org, quota)) + (await drain(b, org, quota));
      expect(admitted + rest).toBe(quota);
      for (let i = 0; i <= IDLE_FLUSHES; i++) {
        await a.flush();
        await b.flush();
      }
      expect(await stored(org)).toBe(quota);
    } finally {
      await a.close();
      await b.close();
    }
  });

  it("a crash loses no served unit: the row counts at least what was served, at most one lease more", async () => {
    const { organizationId: org } = await createTenant(db().pool, { plan: "starter" });
    const crashed = replica();
    await crashed.consume(org, MONTH, 1, 250_000);
    await crashed.flush();
    let served = 1;
    for (let i = 0; i < 70; i++) if ((await crashed.consume(org, MONTH, 1, 250_000)).admitted) served += 1;
    // The process dies here: no flush, no close. Its lease stays reserved, counted as used.
    const row = await stored(org);
    expect(served).toBe(71);
    expect(row).toBeGreaterThan(served);
    expect(row - served).toBeLessThanOrEqual(100);
    // A restarted server goes on from the row.
    const restarted = replica();
    try {
      expect(await restarted.used(org, MONTH)).toBe(row);
      expect((await restarted.consume(org, MONTH, 1, 250_000)).admitted).toBe(true);
      expect(await stored(org)).toBe(row + 1);
    } finally {
      await restarted.close();
    }
  });

  it("a request waits at most waitMs for a reservation, which goes on: its unit serves the next request, a late failure reaches no one", async () => {
    const { organizationId: org } = await createTenant(db().pool, { plan: "free" });
    const gated = gatedReservations();
    const store = pgUsageStore(gated.sql, { flushMs: 3_600_000, waitMs: 50 });
    const refusal = () => store.consume(org, MONTH, 1, 10_000).catch((error: unknown) => error);
    try {
      gated.hold();
      // Both give up: the first on its own reservation, the second on the one it waits for.
      const [first, second] = await Promise.all([refusal(), refusal()]);
      expect(isDatabaseUnavailable(first)).toBe(true);
      expect(isDatabaseUnavailable(second)).toBe(true);
      expect(await stored(org)).toBe(0);
      gated.open();
      await waitFor(async () => (await stored(org)) === 1, 5_000, 10);
      // The unit reserved for the first is spent by the next request, with no reservation (gate held).
      gated.hold();
      expect(await store.consume(org, MONTH, 1, 10_000)).toEqual({ admitted: true, used: null });
      expect(await stored(org)).toBe(1);

      // A reservation that fails after its request gave up is nobody's error (vitest fails a run
      // on an unhandled rejection), and it frees the lease for the next reservation.
      gated.failing = true;
      expect(isDatabaseUnavailable(await refusal())).toBe(true);
      gated.open();
      await new Promise((resolve) => setTimeout(resolve, 20));
      gated.failing = false;
      expect(await store.consume(org, MONTH, 1, 10_000)).toEqual({ admitted: true, used: null });
      expect(await stored(org)).toBe(2);
    } finally {
      gated.open();
      await store.close();
    }
  });

  it("a flush whose answer is lost after PostgreSQL applied it is tried again and counted once, give-backs too", async () => {
    const capped = (await createTenant(db().pool, { plan: "free" })).organizationId;
    const uncapped = (await createTenant(db().pool, { plan: "pro" })).organizationId;
    const pool = db().pool;
    // The next flush statement runs, then its answer is lost, as when the connection is cut after
    // the commit: the store sees a failure.
    let loseNextAnswer = false;
    const cut: Sql = {
      query: (async (config: unknown, ...rest: unknown[]) => {
        const result = await (pool.query as (...args: unknown[]) => Promise<unknown>).call(
          pool,
          config,
          ...rest,
        );
        const text =
          typeof config === "object" && config !== null ? String((config as { text?: unknown }).text) : "";
        if (loseNextAnswer && text.includes("usage_flushes")) {
          loseNextAnswer = false;
          throw new Error("Connection terminated unexpectedly");
        }
        return result;
      }) as Sql["query"],
    };
    const store = pgUsageStore(cut, { flushMs: 3_600_000 });
    try {
      // The capped organization holds a lease: 1 counted alone, then 1 + 100 reserved.
      await store.consume(capped, MONTH, 1, 10_000);
      await store.flush();
      await store.consume(capped, MONTH, 1, 10_000);
      await store.flush(); // an interval with a request: the lease is kept
      for (let i = 1; i < IDLE_FLUSHES; i++) await store.flush();
      expect(await stored(capped)).toBe(102);
      // The IDLE_FLUSHES-th idle flush gives the 100 back, and its answer is lost: given back once.
      loseNextAnswer = true;
      await expect(store.flush()).rejects.toThrow(/Connection terminated/);
      expect(await stored(capped)).toBe(2);
      await store.flush();
      expect(await stored(capped)).toBe(2);
      expect(await store.used(capped, MONTH)).toBe(2);

      // Buffered Pro counts: applied, though the store could not know; tried again, added once.
      await store.consume(uncapped, MONTH, 5, null);
      loseNextAnswer = true;
      await expect(store.flush()).rejects.toThrow(/Connection terminated/);
      expect(await stored(uncapped)).toBe(5);
      await store.consume(uncapped, MONTH, 2, null);
      await store.flush();
      expect(await stored(uncapped)).toBe(7);
      expect(await store.used(uncapped, MONTH)).toBe(7);
    } finally {
      await store.close();
    }
  });

  it("a keyed batch's uncapped units go with the caller's statement; one that fails is applied by the next flush, once", async () => {
    const { organizationId: org } = await createTenant(db().pool, { plan: "pro" });
    const pool = db().pool;
    const apply = async (write: UsageWrite | null) => {
      if (!write) throw new Error("the PostgreSQL store hands its units over");
      await pool.query(usageWriteStatement(write));
    };
    const store = replica();
    try {
      // Applied by the caller's statement: in the row at once, nothing left for the flush to add.
      await store.consumeWith(org, MONTH, 5, apply);
      expect(await stored(org)).toBe(5);
      await store.flush();
      expect(await stored(org)).toBe(5);
      // Applied, but the answer lost (the connection cut after the commit): tried again by its id, added once.
      const lost = store.consumeWith(org, MONTH, 3, async (write) => {
        await apply(write);
        throw new Error("Connection terminated unexpectedly");
      });
      await expect(lost).rejects.toThrow(/Connection terminated/);
      await store.flush();
      expect(await stored(org)).toBe(8);
      expect(await store.used(org, MONTH)).toBe(8);
      // Never applied (no connection): the flush applies it.
      const refused = store.consumeWith(org, MONTH, 2, () =>
        Promise.reject(new Error("connect ECONNREFUSED")),
      );
      await expect(refused).rejects.toThrow(/ECONNREFUSED/);
      expect(await stored(org)).toBe(8);
      expect(await store.used(org, MONTH)).toBe(10);
      await store.flush();
      expect(await stored(org)).toBe(10);
      expect(await store.used(org, MONTH)).toBe(10);
    } finally {
      await store.close();
    }
  });

  it("flush ids are kept two days, purged by the flushes about once an hour", async () => {
    const pool = db().pool;
    const ids = await pool.query<{ id: string }>(
      `INSERT INTO usage_flushes (id, flushed_at)
       VALUES (gen_random_uuid(), now() - interval '3 days'), (gen_random_uuid(), now() - interval '1 day')
       RETURNING id`,
    );
    const [old, recent] = ids.rows.map((row) => row.id);
    const left = async () =>
      (
        await pool.query<{ id: string }>("SELECT id FROM usage_flushes WHERE id = ANY($1::uuid[])", [
          [old, recent],
        ])
      ).rows.map((row) => row.id);
    const store = replica();
    try {
      await store.flush();
      expect(await left()).toHaveLength(2);
      vi.useFakeTimers({ now: Date.now() + 3_600_000, toFake: ["Date"] });
      await store.flush();
      vi.useRealTimers();
      await waitFor(async () => (await left()).length === 1, 5_000, 10);
      expect(await left()).toEqual([recent]);
    } finally {
      vi.useRealTimers();
      await store.close();
    }
  });

  it("usage for /me: the row read once per interval, unless this server wrote it; exact on one server", async () => {
    const { organizationId: org } = await createTenant(db().pool, { plan: "enterprise" });
    let reads = 0;
    const pool = db().pool;
    const counted: Sql = {
      query: ((text: unknown, ...rest: unknown[]) => {
        if (typeof text === "string" && text.startsWith("SELECT used::text")) reads += 1;
        return (pool.query as (...args: unknown[]) => unknown).call(pool, text, ...rest);
      }) as Sql["query"],
    };
    const interval = 60_000;
    const store = pgUsageStore(counted, { flushMs: interval });
    const other = replica();
    try {
      await store.consume(org, MONTH, 3, null);
      expect(await store.used(org, MONTH)).toBe(3);
      expect(await store.used(org, MONTH)).toBe(3);
      expect(reads).toBe(1);
      // Buffered charges of this server show at once, without a read.
      await store.consume(org, MONTH, 2, null);
      expect(await store.used(org, MONTH)).toBe(5);
      expect(reads).toBe(1);
      // Its own flush writes the row: the next read goes to the row.
      await store.flush();
      expect(await store.used(org, MONTH)).toBe(5);
      expect(reads).toBe(2);
      // Another server's flush shows once the interval has passed.
      await other.consume(org, MONTH, 4, null);
      await other.flush();
      expect(await store.used(org, MONTH)).toBe(5);
      vi.useFakeTimers({ now: Date.now() + interval, toFake: ["Date"] });
      expect(await store.used(org, MONTH)).toBe(9);
      expect(reads).toBe(3);
    } finally {
      vi.useRealTimers();
      await store.close();
      await other.close();
    }
  });
});
