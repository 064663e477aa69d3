/**
 * A Map bounded by entry count and by total weight (about the bytes an entry holds), least
 * recently set or touched out first. Every per-process cache of answers uses one: a count cap
 * alone let a few thousand large pages (100 rows each) hold hundreds of megabytes (bench:soak).
 */
export class BoundedMap<K, V> {
  private readonly entries = new Map<K, { value: V; weight: number }>();
  private total = 0;

  constructor(
    private readonly maxEntries: number,
    private readonly maxWeight: number,
  ) {}

  get size() {
    return this.entries.size;
  }

  get weight() {
    return this.total;
  }

  /** The value, marked as recently used. */
  get(key: K): V | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    this.entries.delete(key);
    this.entries.set(key, entry);
    return entry.value;
  }

  set(key: K, value: V, weight = 0): void {
    this.delete(key);
    this.entries.set(key, { value, weight });
    this.total += weight;
    this.evict();
  }

  /** Gives `key` its weight once known (a promise's result), if it still holds `value`. */
  weigh(key: K, value: V, weight: number): void {
    const entry = this.entries.get(key);
    if (!entry || entry.value !== value) return;
    this.total += weight - entry.weight;
    entry.weight = weight;
    this.evict();
  }

  delete(key: K): void {
    const entry = this.entries.get(key);
    if (!entry) return;
    this.entries.delete(key);
    this.total -= entry.weight;
  }

  /** Drops entries from the least recently used end while `stale` says so (expired entries). */
  dropWhile(stale: (value: V) => boolean): void {
    for (const [key, entry] of this.entries) {
      if (!stale(entry.value)) return;
      this.delete(key);
    }
  }

  private evict() {
    for (const key of this.entries.keys()) {
      if (this.entries.size <= this.maxEntries && this.total <= this.maxWeight) return;
      this.delete(key);
    }
  }
}

/** About the bytes a plain-data value holds: its JSON's length (0 if it has none). */
export const jsonWeight = (value: unknown): number => {
  try {
    return JSON.stringify(value)?.length ?? 0;
  } catch {
    return 0;
  }
};
