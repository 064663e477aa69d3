/**
 * Quota leases: how a server charges hard-capped plans without a database write per request. A
 * server reserves units of an organization's monthly quota in PostgreSQL (the reservation counts
 * as used at once, so no server can ever admit past the cap), spends them from memory, and gives
 * back what it did not spend at every flush. This module decides how many units to reserve; the
 * store (data/usage.ts) does the reserving.
 */

/** At most this share of what is left of a quota is ever reserved at once (1/32). */
export const LEASE_DIVISOR = 32;
/** An upper bound on a lease, whatever the traffic. */
export const MAX_LEASE = 10_000;

/**
 * Units to reserve beyond what a request needs: as many as the organization spent through this
 * server in the last flush interval (about the next interval's need, so a busy organization costs
 * about one reservation per interval), never more than 1/32 of what is left after the request, nor
 * MAX_LEASE. An organization that was idle gets none: its requests are counted one by one, as are
 * all requests near the cap (less than 32 units left), so a refusal there is exact.
 * The SQL of the reservation applies the same rule to the row it locks (data/usage.ts); this is
 * the rule itself, for tests and for the part the server knows beforehand.
 */
export const leaseExtra = (recentSpend: number, quota: number, usedBefore: number, need: number): number =>
  Math.max(0, Math.min(MAX_LEASE, recentSpend, Math.floor((quota - usedBefore - need) / LEASE_DIVISOR)));

/** One organization-month's lease on this server. */
export type Lease = {
  /** Reserved in PostgreSQL, not spent yet. */
  left: number;
  /** Spent since the last flush. */
  spent: number;
  /** Spent in the flush interval before: the size of the next reservation. */
  recent: number;
  /** The reservation in flight, which requests that find the lease short wait for. */
  pending: Promise<void> | null;
};
