import { randomUUID } from "node:crypto";
import type { Lease } from "../domain/limits/lease.js";
import { IDLE_FLUSHES, LEASE_DIVISOR, leaseTarget } from "../domain/limits/lease.js";
import type { UsageStore } from "../domain/limits/usage.js";
import { billingMonth, monthStartsAt } from "../domain/limits/windows.js";
import type { Sql } from "./sql.js";
import { prepared, withReadTimeout } from "./sql.js";

/**
 * Reserves `need` units plus a lease (domain/limits/lease.ts) in one round trip, if `need` fits
 * under the quota. The row is locked (FOR UPDATE), so the lease is sized on the latest count and two
 * servers reserving at once are serialized. Returns the count before, and the units granted (null
 * when refused); no row at all when the organization has none for the month yet.
 * $1 organization, $2 month, $3 need, $4 quota, $5 the most to reserve beyond need.
 */
const RESERVE = `WITH current AS (
    SELECT used FROM usage_months WHERE organization_id = $1 AND month = $2 FOR UPDATE
  ), granted AS (
    SELECT $3::bigint + GREATEST(0, LEAST($5::bigint, ($4::bigint - used - $3::bigint) / ${LEASE_DIVISOR})) AS n
    FROM current WHERE used + $3::bigint <= $4::bigint
  ), updated AS (
    UPDATE usage_months u SET used = u.used + g.n FROM granted g
    WHERE u.organization_id = $1 AND u.month = $2 RETURNING g.n
  )
  SELECT c.used::text AS before, (SELECT n FROM updated)::text AS granted FROM current c`;

/**
 * Adds one flush's counts to usage_months (negative: leased units given back), once however often
 * it is tried: the statement records the flush's id, and finding it recorded adds nothing. A flush
 * whose answer is lost (the connection cut after the commit) looks failed and is tried again.
 * A give-back for a row that is gone is dropped rather than written as a negative count.
 * $1 organizations, $2 months, $3 counts, $4 the flush's id.
 */
const APPLY_FLUSH = `WITH flush AS (
    INSERT INTO usage_flushes (id) VALUES ($4) ON CONFLICT DO NOTHING RETURNING id
  ), deltas AS (
    SELECT * FROM unnest($1::int[], $2::text[], $3::bigint[]) AS d(org, month, n)
    WHERE EXISTS (SELECT 1 FROM flush)
  )
  INSERT INTO usage_months (organization_id, month, used)
  SELECT d.org, d.month, d.n FROM deltas d
  WHERE d.n > 0 OR EXISTS (SELECT 1 FROM usage_months u WHERE u.organization_id = d.org AND u.month = d.month)
  ON CONFLICT (organization_id, month) DO UPDATE SET used = usage_months.used + EXCLUDED.used`;

/** Flush ids are kept this long: a flush is tried again within seconds, never days, later. */
const FLUSH_IDS_KEPT = "2 days";
const PURGE_EVERY_MS = 3_600_000;

/** One flush: its counts by organization-month (negative: given back) and the id that applies them once. */
type Flush = { id: string; deltas: Map<string, number> };
const keyOf = (org: number, month: string) => `${org}|${month}`;
const split = (key: string): { org: number; month: string } => {
  const [org, month] = key.split("|");
  return { org: Number(org), month: month ?? "" };
};

/**
 * Monthly usage in usage_months, the durable ledger. Hard-capped plans (Free, Starter) are charged
 * against quota leases: units reserved in PostgreSQL before they are spent (a reservation counts
 * as used at once, so no server, and no two servers together, can admit past the quota), spent
 * from memory, the unspent rest given back after IDLE_FLUSHES intervals in a row without requests.
 * An organization active in the last interval gets a lease of about two intervals of its recent
 * spend, at least MIN_LEASE units, never more than 1/32 of what is left: a reservation every couple
 * of seconds at most instead of a write per request. Its first requests, and every request near the
 * cap, are counted one by one. Uncapped charges (Enterprise, and Pro whose overage is billed) are buffered in memory
 * and added every `flushMs` in one statement. What a crash can lose: docs/operations.md.
 *
 * `used` (GET /me) reads the row at most once per `flushMs` per organization-month while this
 * server does not write it: the row is the sum of every server's flushes and reservations, and
 * another server's requests reach it only at its next flush anyway. Any write of this server to
 * the row, begun or ended, makes the next read go to the row, so on one server `used` is exact.
 *
 * `waitMs` bounds how long a request waits for PostgreSQL here (absent or 0: as long as it takes).
 * A read of the row is given up on (withReadTimeout). A quota reservation is not: the request
 * stops waiting for it and is answered 503, while the reservation goes on; the units it grants
 * land in the lease and are spent by the requests after it, or given back.
 */
export const pgUsageStore = (
  sql: Sql,
  options: { flushMs: number; onError?: (error: unknown) => void; waitMs?: number },
): UsageStore => {
  const waitMs = options.waitMs ?? 0;
  const reads = withReadTimeout(sql, waitMs);
  /** Uncapped units not written yet. */
  let pending = new Map<string, number>();
  /**
   * Flushes not known to be applied: in flight, or failed (applied or not: the answer was lost),
   * and then tried again as they are at the next flush, their ids applying each once.
   */
  let unconfirmed: Flush[] = [];
  let purgedAt = Date.now();
  const leases = new Map<string, Lease>();
  /** Writes of this server to each row, counted as they begin and as they end. */
  const writes = new Map<string, number>();
  /** The last read of each row, valid while no write of this server to it began or ended since. */
  const rows = new Map<string, { used: number; writes: number; readAt: number }>();
  /** Runs a write of this server to the rows of `keys`, counted as it begins and as it ends. */
  const writing = async <T>(keys: string[], work: () => Promise<T>): Promise<T> => {
    const count = () => {
      for (const k of keys) writes.set(k, (writes.get(k) ?? 0) + 1);
    };
    count();
    try {
      return await work();
    } finally {
      count();
    }
  };

  const apply = async ({ id, deltas }: Flush) => {
    const entries = [...deltas].map(([k, n]) => ({ ...split(k), n }));
    await sql.query(
      prepared(APPLY_FLUSH, [
        entries.map((e) => e.org),
        entries.map((e) => e.month),
        entries.map((e) => e.n),
        id,
      ]),
    );
  };
  /** This server's counts not known to be in the row: buffered, or in flushes not known to be applied. */
  const notInRow = (k: string) =>
    (pending.get(k) ?? 0) + unconfirmed.reduce((sum, f) => sum + (f.deltas.get(k) ?? 0), 0);
  const purgeFlushIds = () => {
    if (Date.now() - purgedAt < PURGE_EVERY_MS) return;
    purgedAt = Date.now();
    sql
      .query(`DELETE FROM usage_flushes WHERE flushed_at < now() - interval '${FLUSH_IDS_KEPT}'`)
      .catch((error) => options.onError?.(error));
  };

  /** Reads older than an interval are of no use; write counts are kept for this month and the last. */
  const forgetOldRows = () => {
    const now = Date.now();
    for (const [k, row] of rows) if (now - row.readAt >= options.flushMs) rows.delete(k);
    const current = billingMonth(now);
    const previous = billingMonth(monthStartsAt(now) - 1);
    for (const k of writes.keys()) {
      const { month } = split(k);
      if (month !== current && month !== previous) writes.delete(k);
    }
  };

  const flush = async () => {
    forgetOldRows();
    // Buffered charges go in, and the lease of an organization idle for IDLE_FLUSHES whole intervals
    // ends: its unspent units go back (until applied, they count as used: the safe side of a cap).
    const deltas = pending;
    pending = new Map();
    for (const [k, lease] of leases) {
      if (lease.spent === 0 && !lease.pending) {
        lease.idle += 1;
        if (lease.idle >= IDLE_FLUSHES) {
          if (lease.left > 0) deltas.set(k, (deltas.get(k) ?? 0) - lease.left);
          leases.delete(k);
        }
        continue;
      }
      lease.idle = 0;
      lease.recent = lease.spent;
      lease.spent = 0;
    }
    for (const [k, n] of deltas) if (n === 0) deltas.delete(k);
    if (deltas.size > 0) unconfirmed.push({ id: randomUUID(), deltas });
    const flushes = [...unconfirmed];
    await writing(
      flushes.flatMap((f) => [...f.deltas.keys()]),
      async () => {
        // In order; a failure leaves it and the ones after it for the next flush.
        for (const current of flushes) {
          await apply(current);
          unconfirmed = unconfirmed.filter((f) => f !== current);
        }
      },
    );
    purgeFlushIds();
  };

  const timer = setInterval(() => {
    flush().catch((error) => options.onError?.(error));
  }, options.flushMs);
  timer.unref();

  const stored = async (org: number, month: string) => {
    const result = await reads.query<{ used: string }>(
      "SELECT used::text FROM usage_months WHERE organization_id = $1 AND month = $2",
      [org, month],
    );
    return Number(result.rows[0]?.used ?? 0);
  };

  /** The row's count, read at most once per flushMs while this server does not write it. */
  const storedRecently = async (org: number, month: string) => {
    const k = keyOf(org, month);
    const before = writes.get(k) ?? 0;
    const now = Date.now();
    const known = rows.get(k);
    if (known && known.writes === before && now - known.readAt < options.flushMs) return known.used;
    const used = await stored(org, month);
    if ((writes.get(k) ?? 0) === before) rows.set(k, { used, writes: before, readAt: now });
    else rows.delete(k);
    return used;
  };

  /** One reservation for `lease`: adds the granted units to it, or says the quota refused `need`. */
  const reserve = async (
    org: number,
    month: string,
    lease: Lease,
    need: number,
    quota: number,
  ): Promise<{ refused: number | null }> => {
    const run = () =>
      sql.query<{ before: string; granted: string | null }>(
        prepared(RESERVE, [org, month, need, quota, leaseTarget(lease.recent)]),
      );
    const result = await writing([keyOf(org, month)], async () => {
      const first = await run();
      if (first.rows.length > 0) return first;
      await sql.query(
        "INSERT INTO usage_months (organization_id, month, used) VALUES ($1, $2, 0) ON CONFLICT DO NOTHING",
        [org, month],
      );
      return run();
    });
    const row = result.rows[0];
    if (!row) throw new Error("usage row missing after insert");
    if (row.granted === null) return { refused: Number(row.before) };
    lease.left += Number(row.granted);
    return { refused: null };
  };

  /** Spends `cost` from the lease if it holds that much. */
  const spend = (lease: Lease | undefined, cost: number): boolean => {
    if (!lease || lease.left < cost) return false;
    lease.left -= cost;
    lease.spent += cost;
    return true;
  };

  /** Uncapped units are added in memory and written at the next flush. */
  const buffer = (org: number, month: string, cost: number) => {
    const k = keyOf(org, month);
    pending.set(k, (pending.get(k) ?? 0) + cost);
  };

  /** `work`, or an "unavailable" error (a 503) once the request has waited `waitMs` for it. */
  const waitAtMost = <T>(work: Promise<T>): Promise<T> => {
    if (waitMs <= 0) return work;
    let timer: NodeJS.Timeout | undefined;
    const gaveUp = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        const message = `PostgreSQL did not answer a quota reservation within ${waitMs} ms`;
        reject(Object.assign(new Error(message), { code: "ETIMEDOUT" }));
      }, waitMs);
    });
    return Promise.race([work, gaveUp]).finally(() => clearTimeout(timer));
  };

  const leaseOf = (k: string): Lease => {
    let lease = leases.get(k);
    if (!lease) {
      lease = { left: 0, spent: 0, recent: 0, idle: 0, pending: null };
      leases.set(k, lease);
    }
    return lease;
  };

  const consumeCapped = async (org: number, month: string, cost: number, quota: number) => {
    const lease = leaseOf(keyOf(org, month));
    for (;;) {
      if (spend(lease, cost)) return { admitted: true, used: null };
      if (lease.pending) {
        await waitAtMost(lease.pending);
        continue;
      }
      // Spend what is left of the lease first: a refusal is then about the whole quota.
      const reservation = reserve(org, month, lease, cost - lease.left, quota);
      // The lease is free for the next reservation once this one settles, whether or not the
      // request that made it still waits (a failure reaches the requests that wait for it).
      const inFlight = reservation.then(() => {});
      lease.pending = inFlight;
      const settled = () => {
        if (lease.pending === inFlight) lease.pending = null;
      };
      inFlight.then(settled, settled);
      const outcome = await waitAtMost(reservation);
      if (outcome.refused !== null) return { admitted: false, used: outcome.refused };
    }
  };

  return {
    async consume(org, month, cost, quota) {
      if (quota === null) {
        buffer(org, month, cost);
        return { admitted: true, used: null };
      }
      if (cost > quota) return { admitted: false, used: await stored(org, month) };
      return consumeCapped(org, month, cost, quota);
    },
    consumeHeld(org, month, cost, quota) {
      if (quota !== null) return spend(leases.get(keyOf(org, month)), cost);
      buffer(org, month, cost);
      return true;
    },
    async used(org, month) {
      const k = keyOf(org, month);
      // Leased units count as used in the row until spent or given back; this server's are not spent.
      return (await storedRecently(org, month)) + notInRow(k) - (leases.get(k)?.left ?? 0);
    },
    flush,
    async close() {
      clearInterval(timer);
      await flush();
    },
  };
};
