type Slot<V> = { value: V; weight: number; used: boolean };

/**
 * A Map bounded by entry count and by total weight (about the bytes an entry holds), recently
 * used entries kept over the others. Every per-process cache is one (src/caches/): a count cap
 * alone let a few thousand large pages (100 rows each) hold hundreds of megabytes (bench:soak).
 *
 * Eviction is second chance (CLOCK) rather than strict LRU: a get only marks its entry, and the
 * eviction walk from the oldest end moves marked entries to the young end (unmarked) and removes
 * unmarked ones. Strict LRU re-inserted the entry on every get, and that delete + set was the
 * map's whole cost on the hot path of cached answers (2% of the server's CPU profile, bench:traffic).
 * Each move clears a mark that a get set, so the walk never costs more than re-inserting on every
 * get did; it comes in bursts instead (one set may move every marked entry once). A moved entry
 * comes up again, unmarked, once every older one has had its turn, so a walk ends within two rounds.
 */
export class BoundedMap<K, V> {
  private readonly slots = new Map<K, Slot<V>>();
  private total = 0;
  /**
   * The eviction walk, kept between calls. Every entry it passes is removed or moved to the young
   * end, so it always stands at the oldest entry. A walk begun afresh at each eviction had to step
   * over the slots of every entry removed since the Map last compacted its table (V8 keeps them until
   * it rehashes): 7-47 µs per set at 10,000-100,000 entries while churning, as a flood of distinct
   * URLs or unknown keys does. A Map iterator follows its Map through deletes, inserts and rehashes.
   */
  private walk: Iterator<[K, Slot<V>]> | undefined;

  constructor(
    private readonly maxEntries: number,
    private readonly maxWeight: number,
  ) {}

  get size() {
    return this.slots.size;
  }

  get weight() {
    return this.total;
  }

  /** The value, marked as recently used. */
  get(key: K): V | undefined {
    const slot = this.slots.get(key);
    if (!slot) return undefined;
    slot.used = true;
    return slot.value;
  }

  /** The value, left unmarked (a look that is not a use, such as a bookkeeping check). */
  peek(key: K): V | undefined {
    return this.slots.get(key)?.value;
  }

  /** Every entry, oldest first, none marked as used. */
  *entries(): Generator<[K, V]> {
    for (const [key, slot] of this.slots) yield [key, slot.value];
  }

  /**
   * Sets `key` as the youngest entry, not yet used. A value heavier than the whole cap is not kept:
   * making room for it would empty the map for nothing.
   */
  set(key: K, value: V, weight = 0): void {
    this.delete(key);
    if (weight > this.maxWeight) return;
    this.slots.set(key, { value, weight, used: false });
    this.total += weight;
    this.evict();
  }

  /** Gives `key` its weight once known (a promise's result), if it still holds `value`. */
  weigh(key: K, value: V, weight: number): void {
    const slot = this.slots.get(key);
    if (!slot || slot.value !== value) return;
    this.total += weight - slot.weight;
    slot.weight = weight;
    this.evict();
  }

  delete(key: K): void {
    const slot = this.slots.get(key);
    if (!slot) return;
    this.slots.delete(key);
    this.total -= slot.weight;
  }

  private evict() {
    while (this.slots.size > this.maxEntries || this.total > this.maxWeight) {
      let next = this.walk?.next();
      if (!next || next.done) {
        this.walk = this.slots.entries();
        next = this.walk.next();
        if (next.done) return;
      }
      const [key, slot] = next.value;
      this.slots.delete(key);
      if (slot.used) {
        slot.used = false;
        this.slots.set(key, slot);
      } else {
        this.total -= slot.weight;
      }
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
