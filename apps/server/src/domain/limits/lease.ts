/**
 * The lease rule: how many units a server reserves ahead of an organization's requests. A server
 * reserves units of a shared limit (the reservation counts as used at once, so no server can ever
 * admit past the limit), spends them from memory, and gives back what is left once the organization
 * has been idle for IDLE_FLUSHES flush intervals. Two limits are leased this way, through one
 * ledger (metering/lease-ledger.ts): the monthly quota of hard-capped plans in PostgreSQL
 * (metering/postgres-quota.ts) and the rate windows in Redis (metering/leased-windows.ts). This
 * module is the arithmetic only; the stores reserve.
 */

/** At most this share of what is left of a quota is ever reserved at once (1/32). */
export const LEASE_DIVISOR = 32;
/** The least a lease reserves while far from the cap: a slow organization reserves rarely too. */
export const MIN_LEASE = 100;
/** An upper bound on a lease, whatever the traffic. */
export const MAX_LEASE = 10_000;
/**
 * A lease is given back after this many flush intervals in a row without a request (5: five seconds
 * by default). Hard-capped plans are the small ones (Free 30, Starter 120 requests a minute): with
 * one idle interval, an organization sending one request every second or two lost its lease
 * between requests and paid a reservation and a release for almost every request.
 */
export const IDLE_FLUSHES = 5;

/**
 * The most to reserve beyond what a request needs, before the cap is considered: none for an
 * organization without requests in the last flush interval (its requests are counted one by one, so
 * a server that dies holds nothing for it), else about two intervals of its recent spend through this
 * server, at least MIN_LEASE.
 */
export const leaseTarget = (recentSpend: number): number =>
  recentSpend === 0 ? 0 : Math.min(MAX_LEASE, Math.max(MIN_LEASE, 2 * recentSpend));

/**
 * Units to reserve beyond what a request needs: the target, never more than 1/32 of what is left
 * after the request. Near the cap (less than 32 units left) that is none: every request there is
 * counted one by one, so a refusal there is exact. The SQL of the reservation applies this rule to
 * the row it locks (metering/postgres-quota.ts); this is the rule itself, for tests and readers.
 */
export const leaseExtra = (recentSpend: number, quota: number, usedBefore: number, need: number): number =>
  extraWithin(leaseTarget(recentSpend), quota, usedBefore, need);

/**
 * Units to reserve beyond `need` under one limit: at most `upTo`, never more than 1/32 of what is
 * left after the need (so none with less than 32 left). The Lua of the window reservation applies
 * the same rule to every window it checks (metering/redis-windows.ts).
 */
export const extraWithin = (upTo: number, limit: number, usedBefore: number, need: number): number =>
  Math.max(0, Math.min(upTo, Math.floor((limit - usedBefore - need) / LEASE_DIVISOR)));
