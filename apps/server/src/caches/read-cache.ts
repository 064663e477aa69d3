import type { Clock } from "../clock.js";
import { BoundedMap } from "./bounded-map.js";

/**
 * Reads kept per key, each for the TTL its caller gives (null: until evicted). Promises are stored,
 * so a burst of identical requests makes one query; a failed load is forgotten. Used for which
 * snapshot a batch's period and date read (a second): small values, bounded by count only, so that
 * nothing is serialized to weigh them.
 */
export type ReadCache = {
  get<T>(key: string, ttlMs: number | null, load: () => Promise<T>): Promise<T>;
};

export const readCache = (clock: Clock, maxEntries = 5_000): ReadCache => {
  const entries = new BoundedMap<string, { value: Promise<unknown>; expiresAt: number }>(
    maxEntries,
    Number.POSITIVE_INFINITY,
  );
  return {
    get<T>(key: string, ttlMs: number | null, load: () => Promise<T>): Promise<T> {
      const now = clock.now();
      // get() marks the entry as used: eviction passes over it once (BoundedMap).
      const hit = entries.get(key);
      if (hit && hit.expiresAt > now) return hit.value as Promise<T>;
      const value = load();
      const entry = { value, expiresAt: ttlMs === null ? Number.POSITIVE_INFINITY : now + ttlMs };
      entries.set(key, entry);
      value.catch(() => {
        // A failed load is not kept: the next request reads again. Only this load's entry goes.
        if (entries.peek(key) === entry) entries.delete(key);
      });
      return value;
    },
  };
};
