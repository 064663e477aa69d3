/** Durable monthly usage per organization (UTC calendar month). */
export interface UsageStore {
  /**
   * Adds `cost` units. With a `quota` the units are added only if the total stays within it,
   * atomically; `quota` null (unmetered, or a plan with overage) always admits.
   * `used` is the total after the charge, or the current total when refused; it may be null for an
   * admitted uncapped charge (the store may buffer those and not know the total cheaply).
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
  used(organizationId: number, month: string): Promise<number>;
  /** Writes buffered charges. */
  flush(): Promise<void>;
  close(): Promise<void>;
}

export const memoryUsageStore = (): UsageStore => {
  const used = new Map<string, number>();
  const key = (org: number, month: string) => `${org}|${month}`;
  return {
    async consume(org, month, cost, quota) {
      const current = used.get(key(org, month)) ?? 0;
      if (quota !== null && current + cost > quota) return { admitted: false, used: current };
      used.set(key(org, month), current + cost);
      return { admitted: true, used: current + cost };
    },
    async used(org, month) {
      return used.get(key(org, month)) ?? 0;
    },
    async flush() {},
    async close() {},
  };
};
