import { extraWithin } from "../domain/limits/lease.js";

/** One counter to check: admitted only if `count + cost <= limit`. */
export type WindowCheck = { key: string; limit: number; resetsAt: number };

/**
 * `counts`: each window's count after the increment when admitted, its current count when not.
 * `granted`: units reserved beyond `cost` (a lease: see `consume`'s `extraUpTo`).
 * `blocked`: index of the first window that had fewer than `cost` units left.
 */
export type ConsumeResult =
  | { admitted: true; counts: number[]; granted: number }
  | { admitted: false; counts: number[]; blocked: number };

/**
 * Rate-window counters: this file's memory store (one process), redis-windows.ts (shared), the
 * failover between them (failover-windows.ts), and leases over either (leased-windows.ts).
 * `consume` is all-or-nothing across the windows: a request costing N is
 * admitted only if every window has N left, and a rejected request increments nothing.
 */
export interface LimiterStore {
  /**
   * `extraUpTo` (default 0): when admitted, also reserve up to that many units more on every window,
   * never more than 1/32 of what any window has left (`extraWithin`, domain/limits/lease.ts);
   * `granted` says how many. A lease for leased-windows.ts, decided in the same atomic step as the
   * request.
   */
  consume(windows: WindowCheck[], cost: number, now: number, extraUpTo?: number): Promise<ConsumeResult>;
  /**
   * Charges `cost` from units this process already holds for the windows (a lease), at once: the
   * result (always admitted), or null when `consume` must decide. Stores that hold nothing omit it.
   */
  consumeHeld?(windows: WindowCheck[], cost: number): ConsumeResult | null;
  /** Each window's current count, charging nothing (the headers of a free or refused request). */
  peek(windows: WindowCheck[], now: number): Promise<number[]>;
  /** Gives back units of an admitted request that a later check (the monthly quota) refused. */
  refund(windows: WindowCheck[], cost: number): Promise<void>;
  close(): Promise<void>;
}

/** Single-process store (tests, a lone server without REDIS_URL). */
export const memoryLimiterStore = (): LimiterStore => {
  const counters = new Map<string, { count: number; resetsAt: number }>();
  let calls = 0;
  const sweep = (now: number) => {
    for (const [key, entry] of counters) if (entry.resetsAt <= now) counters.delete(key);
  };
  return {
    async consume(windows, cost, now, extraUpTo = 0) {
      if (++calls % 1_000 === 0) sweep(now);
      const counts = windows.map((w) => {
        const entry = counters.get(w.key);
        return entry && entry.resetsAt > now ? entry.count : 0;
      });
      const blocked = windows.findIndex((w, i) => (counts[i] ?? 0) + cost > w.limit);
      if (blocked !== -1) return { admitted: false, counts, blocked };
      const granted = Math.min(
        ...windows.map((w, i) => extraWithin(extraUpTo, w.limit, counts[i] ?? 0, cost)),
      );
      windows.forEach((w, i) => {
        const count = (counts[i] ?? 0) + cost + granted;
        counters.set(w.key, { count, resetsAt: w.resetsAt });
        counts[i] = count;
      });
      return { admitted: true, counts, granted };
    },
    async peek(windows, now) {
      return windows.map((w) => {
        const entry = counters.get(w.key);
        return entry && entry.resetsAt > now ? entry.count : 0;
      });
    },
    async refund(windows, cost) {
      for (const w of windows) {
        const entry = counters.get(w.key);
        if (entry) entry.count = Math.max(0, entry.count - cost);
      }
    },
    async close() {
      counters.clear();
    },
  };
};
