import { IDLE_FLUSHES, leaseTarget } from "../domain/limits/lease.js";

/**
 * One organization's lease on one shared limit, on this server: units reserved in the shared store
 * (where they already count as used) and not spent yet. `Answer` is what the store answers a
 * reservation.
 */
export type Lease<Answer> = {
  /** Reserved in the shared store, not spent yet. */
  left: number;
  /** Spent since the last interval ended. */
  spent: number;
  /** Spent in the last interval with requests: sizes the next reservation. */
  recent: number;
  /** Intervals in a row without a request: the lease is given back at IDLE_FLUSHES. */
  idle: number;
  /** The reservation in flight and the units it asks for: requests that find the lease short wait on it. */
  pending: { need: number; answer: Promise<Answer> } | null;
};

/**
 * The leases of one limit on this server (domain/limits/lease.ts has the rule that sizes them): the
 * one ledger of both leased limits, the rate windows (leased-windows.ts) and the monthly quota of
 * hard-capped plans (postgres-quota.ts). It reserves through the store's own call, spends from
 * memory, puts back what a later check refused, and at the end of each interval says which leases
 * go back to the store. It holds no timer and does no I/O of its own: the stores call it.
 */
export const leaseLedger = <Answer, Extra extends object = object>() => {
  type Held = Lease<Answer> & Extra;
  const leases = new Map<string, Held>();

  return {
    get: (key: string): Held | undefined => leases.get(key),

    /** The lease of `key`, opened empty (with `extra`) if there is none. */
    open(key: string, extra: () => Extra): Held {
      let lease = leases.get(key);
      if (!lease) {
        lease = { ...extra(), left: 0, spent: 0, recent: 0, idle: 0, pending: null };
        leases.set(key, lease);
      }
      return lease;
    },

    /** Spends `cost` from the lease if it holds that much. */
    spend(lease: Held | undefined, cost: number): boolean {
      if (!lease || lease.left < cost) return false;
      lease.left -= cost;
      lease.spent += cost;
      return true;
    },

    /** Counts units the shared store charged directly, not from the lease: they size the next one. */
    tally(lease: Held, units: number) {
      lease.spent += units;
    },

    /** Puts back units spent from the lease, for a request that a later check refused. */
    putBack(lease: Held, units: number) {
      lease.left += units;
      lease.spent = Math.max(0, lease.spent - units);
    },

    /**
     * Reserves `need` units and the lease's next share: `ask` is the store's call, given the most to
     * reserve beyond the need (the lease rule's target); `granted` reads how many it granted beyond
     * the need from its answer (null: refused). One reservation per lease at a time: the lease is
     * free for the next once this one settles, whether or not the request that made it still waits.
     */
    reserve(
      lease: Held,
      need: number,
      ask: (extraUpTo: number) => Promise<Answer>,
      granted: (answer: Answer) => number | null,
    ): Promise<Answer> {
      const answer = ask(leaseTarget(lease.recent)).then((answered) => {
        const extra = granted(answered);
        if (extra !== null) lease.left += need + extra;
        return answered;
      });
      const pending = { need, answer };
      lease.pending = pending;
      const settled = () => {
        if (lease.pending === pending) lease.pending = null;
      };
      // Also handles a failure nobody waits for any more (its request gave up on it).
      answer.then(settled, settled);
      return answer;
    },

    /**
     * Ends an interval: sizes each lease on its spend, and takes out the leases to give back (their
     * unspent units), those idle for IDLE_FLUSHES intervals in a row and those `ended` says are
     * over. A lease with a reservation in flight is busy, and stays: its units land in it. It is
     * sized like the others: an organization's first interval is counted one reservation at a
     * time, nearly always with one in flight under load, and must still lead to a lease.
     */
    endInterval(ended: (lease: Held) => boolean = () => false): Array<[string, Held]> {
      const returned: Array<[string, Held]> = [];
      for (const [key, lease] of leases) {
        lease.idle = lease.spent === 0 && !lease.pending ? lease.idle + 1 : 0;
        if (!lease.pending && (ended(lease) || lease.idle >= IDLE_FLUSHES)) {
          leases.delete(key);
          returned.push([key, lease]);
          continue;
        }
        if (lease.spent > 0) lease.recent = lease.spent;
        lease.spent = 0;
      }
      return returned;
    },

    /** Takes out every lease (at shutdown, to give them all back). */
    takeAll(): Held[] {
      const all = [...leases.values()];
      leases.clear();
      return all;
    },
  };
};
