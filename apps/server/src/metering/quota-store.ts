import type { UsageWrite } from "../data/usage-writes.js";

/**
 * Durable monthly usage per organization (UTC calendar month): this file's memory store (tests),
 * and postgres-quota.ts (usage_months, leases for hard caps).
 */
export interface UsageStore {
  /**
   * Adds `cost` units. With a `quota` the units are added only if the total stays within it,
   * atomically; `quota` null (unmetered, or a plan with overage) always admits.
   * `used` is the total after the charge, or, when refused, the total as this server sees it (its own
   * leased units not spent yet are not used); it may be null for an admitted charge (the store may
   * buffer or lease units and not know the total cheaply).
   */
  consume(
    organizationId: number,
    month: string,
    cost: number,
    quota: number | null,
  ): Promise<{ admitted: boolean; used: number | null }>;
  /**
   * Charges `cost` from memory at once (units buffered, or held in a lease): true, or false when
   * `consume` must decide. Stores that decide nothing in memory omit it.
   */
  consumeHeld?(organizationId: number, month: string, cost: number, quota: number | null): boolean;
  /**
   * Adds `cost` uncapped units through `write`, which applies them in a statement of the caller's
   * together with what must be durable with them (a keyed batch's paid mark), rather than buffered
   * where a crash loses them. `write` gets null from a store that keeps its counts itself (memory).
   * Rejects when `write` fails; the units are then applied by the store's next flush, once.
   */
  consumeWith(
    organizationId: number,
    month: string,
    cost: number,
    write: (units: UsageWrite | null) => Promise<void>,
  ): Promise<void>;
  used(organizationId: number, month: string): Promise<number>;
  /** Writes buffered charges. */
  flush(): Promise<void>;
  close(): Promise<void>;
}

export const memoryUsageStore = (): UsageStore => {
  const used = new Map<string, number>();
  const key = (org: number, month: string) => `${org}|${month}`;
  const add = (org: number, month: string, cost: number) => {
    const total = (used.get(key(org, month)) ?? 0) + cost;
    used.set(key(org, month), total);
    return total;
  };
  return {
    async consume(org, month, cost, quota) {
      const current = used.get(key(org, month)) ?? 0;
      if (quota !== null && current + cost > quota) return { admitted: false, used: current };
      return { admitted: true, used: add(org, month, cost) };
    },
    async consumeWith(org, month, cost, write) {
      add(org, month, cost);
      await write(null);
    },
    async used(org, month) {
      return used.get(key(org, month)) ?? 0;
    },
    async flush() {},
    async close() {},
  };
};
