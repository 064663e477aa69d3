import { leaseTarget } from "../domain/limits/lease.js";
import type { Lease } from "./lease-ledger.js";
import { leaseLedger } from "./lease-ledger.js";
import type { ConsumeResult, LimiterStore, WindowCheck } from "./window-store.js";

/** What a window lease holds beside the ledger's counts: its windows and the shared store's counts. */
type WindowExtra = {
  windows: WindowCheck[];
  /** Each window's count in the shared store after the last reservation, this server's `left` included. */
  counts: number[];
  /**
   * False once a reservation granted nothing ahead (near a limit, or refused): from then on, the
   * requests of these windows go to the shared store each on its own, concurrently, rather than
   * one reservation after another.
   */
  granting: boolean;
};
type WindowLease = Lease<ConsumeResult> & WindowExtra;

export type LeasedLimiter = LimiterStore & {
  /** Ends the interval: sizes leases on its spend, gives back idle and ended ones (run by a timer). */
  flush(): Promise<void>;
};

/**
 * Rate windows charged from leases (lease-ledger.ts): instead of one shared-store call per
 * request, a server reserves a few units ahead for an organization that was busy in the last flush
 * interval, in the same atomic call that admits a request, and spends them from memory. A reservation counts
 * in the shared store at once, so no server, and no number of servers together, admits past a
 * window; near a limit (under 32 units left on a window) nothing is reserved ahead and every
 * request is decided by the shared store, so one server refuses exactly at the limit. Unspent units
 * go back after IDLE_FLUSHES idle intervals, or, for the day window, when the minute ends.
 *
 * Organizations without requests in the last interval are counted one call per request, as
 * without leases, so a quiet organization never holds units. The counts reported (the X-RateLimit
 * headers) are the shared counts minus this server's unspent units: exact on one server; with
 * several, another server's unspent units show as used until spent or given back.
 */
export const leasedLimiterStore = (
  shared: LimiterStore,
  {
    flushMs,
    now = Date.now,
    onError,
  }: { flushMs: number; now?: () => number; onError?: (error: unknown) => void },
): LeasedLimiter => {
  const ledger = leaseLedger<ConsumeResult, WindowExtra>();
  const keyOf = (windows: WindowCheck[]) => windows.map((w) => w.key).join(" ");

  /** The shared counts as this server sees them: its own unspent units are not used. */
  const seen = (counts: number[], left: number) => counts.map((count) => count - left);

  /** Reserves what `cost` lacks plus the lease's next share, in the call that admits the request. */
  const reserve = (lease: WindowLease, cost: number, at: number): Promise<ConsumeResult> => {
    const need = cost - lease.left;
    const ask = (extraUpTo: number) =>
      shared.consume(lease.windows, need, at, extraUpTo).then((result) => {
        lease.granting = result.admitted && result.granted > 0;
        if (result.admitted) lease.counts = result.counts;
        return result;
      });
    return ledger.reserve(lease, need, ask, (result) => (result.admitted ? result.granted : null));
  };

  /** Busy in the last interval and still given units ahead: its requests are charged from the lease. */
  const leasing = (lease: WindowLease) => lease.granting && leaseTarget(lease.recent) > 0;

  /** Spends `cost` from the lease if it holds that much: the result a charge reports. */
  const spend = (lease: WindowLease | undefined, cost: number): ConsumeResult | null =>
    lease && ledger.spend(lease, cost)
      ? { admitted: true, counts: seen(lease.counts, lease.left), granted: 0 }
      : null;

  const consume = async (windows: WindowCheck[], cost: number, at: number): Promise<ConsumeResult> => {
    const lease = ledger.open(keyOf(windows), () => ({ windows, counts: [], granting: true }));
    for (;;) {
      const spent = spend(lease, cost);
      if (spent) return spent;
      if (lease.pending) {
        const { need, answer } = lease.pending;
        const answered = await answer;
        // Asked while a reservation of as much was refused: refused with it (the two were
        // concurrent), rather than one more call that the shared store would refuse too.
        if (!answered.admitted && lease.left < cost && cost - lease.left >= need) {
          return { ...answered, counts: seen(answered.counts, lease.left) };
        }
        continue;
      }
      if (lease.left === 0 && !leasing(lease)) {
        // Not busy in the last interval, or near a limit: decided by the shared store alone.
        const result = await shared.consume(windows, cost, at);
        if (result.admitted) {
          ledger.tally(lease, cost);
          lease.counts = result.counts;
        }
        return result;
      }
      const answered = await reserve(lease, cost, at);
      if (!answered.admitted) return { ...answered, counts: seen(answered.counts, lease.left) };
    }
  };

  /** Gives `units` back on the windows that have not ended (an ended window's count no longer matters). */
  const giveBack = async (windows: WindowCheck[], units: number, at: number) => {
    const open = windows.filter((w) => w.resetsAt > at);
    if (units > 0 && open.length > 0) await shared.refund(open, units);
  };

  const flush = async () => {
    const at = now();
    const ended = (lease: WindowLease) => lease.windows.some((w) => w.resetsAt <= at);
    const returns = ledger.endInterval(ended).map(([, lease]) => giveBack(lease.windows, lease.left, at));
    const failed = (await Promise.allSettled(returns)).find((r) => r.status === "rejected");
    // Units not given back count as used until their window ends: the safe side of a limit.
    if (failed) throw failed.reason;
  };

  const timer = setInterval(() => {
    flush().catch((error: unknown) => onError?.(error));
  }, flushMs);
  timer.unref();

  return {
    consume,
    consumeHeld: (windows, cost) => spend(ledger.get(keyOf(windows)), cost),
    async peek(windows, at) {
      // A busy organization's windows as this server last saw them, as a charge would report them
      // (the headers of `/me`): no Redis call for what the lease already says.
      const lease = ledger.get(keyOf(windows));
      if (lease && leasing(lease) && lease.counts.length > 0) return seen(lease.counts, lease.left);
      const counts = await shared.peek(windows, at);
      return seen(counts, lease?.left ?? 0);
    },
    async refund(windows, cost) {
      // Units of an admitted request that the quota refused: back into the lease they came from.
      const lease = ledger.get(keyOf(windows));
      if (lease) return ledger.putBack(lease, cost);
      await shared.refund(windows, cost);
    },
    flush,
    async close() {
      clearInterval(timer);
      const at = now();
      await Promise.allSettled(ledger.takeAll().map((lease) => giveBack(lease.windows, lease.left, at)));
      await shared.close();
    },
  };
};
