import { type Clock, systemClock } from "../clock.js";
import type { Sql } from "../data/sql.js";
import { prepared } from "../data/sql.js";
import { LEASE_DIVISOR } from "../domain/limits/lease.js";
import { leaseLedger } from "./lease-ledger.js";
import type { UsageStore } from "./quota-store.js";
import { usageFlushLog } from "./usage-flushes.js";
import { usageKey, usageRows } from "./usage-rows.js";

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

/** A reservation's answer: the row's count before it, and the units granted beyond the need (null: refused). */
type Reserved = { before: number; extra: number | null };

/**
 * Monthly usage in usage_months, the durable ledger. Hard-capped plans (Free, Starter) are charged
 * against quota leases (lease-ledger.ts): units reserved in PostgreSQL before they are spent (a
 * reservation counts as used at once, so no server, and no two servers together, can admit past
 * the quota), spent from memory, the unspent rest given back after IDLE_FLUSHES intervals in a row
 * without requests. An organization active in the last interval gets a lease of about two intervals
 * of its recent spend, at least MIN_LEASE units, never more than 1/32 of what is left: a reservation
 * every couple of seconds at most instead of a write per request. Its first requests, and every
 * request near the cap, are counted one by one. Uncapped charges (Enterprise, and Pro whose overage
 * is billed) are buffered and written every `flushMs` in one statement (usage-flushes.ts), except a
 * keyed batch's, written with its paid mark (`consumeWith`). What a crash can lose:
 * docs/operations.md.
 *
 * `used` (GET /me) is the row as usage-rows.ts reads it, plus this server's counts not in it yet,
 * minus its leased units not spent yet.
 *
 * `waitMs` bounds how long a request waits for PostgreSQL here (absent or 0: as long as it takes).
 * A read of the row is given up on (withReadTimeout). A quota reservation is not: the request
 * stops waiting for it and is answered 503, while the reservation goes on; the units it grants
 * land in the lease and are spent by the requests after it, or given back.
 */
export const pgUsageStore = (
  sql: Sql,
  options: { flushMs: number; onError?: (error: unknown) => void; waitMs?: number; clock?: Clock },
): UsageStore => {
  const waitMs = options.waitMs ?? 0;
  const clock = options.clock ?? systemClock;
  const rows = usageRows(sql, { flushMs: options.flushMs, waitMs, clock });
  const log = usageFlushLog(sql, { rows, clock, ...(options.onError ? { onError: options.onError } : {}) });
  const ledger = leaseLedger<Reserved>();

  const flush = async () => {
    rows.forgetOldMonths();
    // The lease of an organization idle for IDLE_FLUSHES whole intervals ends: its unspent units go
    // back with the buffered charges (until applied, they count as used: the safe side of a cap).
    await log.flush(ledger.endInterval().map(([k, lease]) => [k, lease.left]));
  };

  const timer = setInterval(() => {
    flush().catch((error) => options.onError?.(error));
  }, options.flushMs);
  timer.unref();

  /** One reservation: `need` and up to `extraUpTo` more, or the count that refused it. */
  const reserve = async (org: number, month: string, need: number, quota: number, extraUpTo: number) => {
    const run = () =>
      sql.query<{ before: string; granted: string | null }>(
        prepared(RESERVE, [org, month, need, quota, extraUpTo]),
      );
    const result = await rows.writing([usageKey(org, month)], async () => {
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
    const before = Number(row.before);
    return { before, extra: row.granted === null ? null : Number(row.granted) - need };
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

  const consumeCapped = async (org: number, month: string, cost: number, quota: number) => {
    const lease = ledger.open(usageKey(org, month), () => ({}));
    for (;;) {
      if (ledger.spend(lease, cost)) return { admitted: true, used: null };
      if (lease.pending) {
        await waitAtMost(lease.pending.answer);
        continue;
      }
      // Spend what is left of the lease first: a refusal is then about the whole quota.
      const need = cost - lease.left;
      const ask = (extraUpTo: number) => reserve(org, month, need, quota, extraUpTo);
      const reserved = await waitAtMost(ledger.reserve(lease, need, ask, (answer) => answer.extra));
      // Refused: used as this server sees it, its own unspent units (still leased) not counted.
      if (reserved.extra === null) return { admitted: false, used: reserved.before - lease.left };
    }
  };

  const used = async (org: number, month: string) => {
    const k = usageKey(org, month);
    // Leased units count as used in the row until spent or given back; this server's are not spent.
    return (await rows.readRecently(org, month)) + log.notInRow(k) - (ledger.get(k)?.left ?? 0);
  };

  return {
    async consume(org, month, cost, quota) {
      if (quota === null) {
        log.buffer(usageKey(org, month), cost);
        return { admitted: true, used: null };
      }
      if (cost > quota) return { admitted: false, used: await used(org, month) };
      return consumeCapped(org, month, cost, quota);
    },
    consumeHeld(org, month, cost, quota) {
      if (quota !== null) return ledger.spend(ledger.get(usageKey(org, month)), cost);
      log.buffer(usageKey(org, month), cost);
      return true;
    },
    consumeWith: (org, month, cost, write) => log.writeWith(usageKey(org, month), cost, write),
    used,
    flush,
    async close() {
      clearInterval(timer);
      await flush();
    },
  };
};
