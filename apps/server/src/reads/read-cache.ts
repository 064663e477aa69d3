import type { Clock } from "../clock.js";
import { BoundedMap, jsonWeight } from "../domain/cache/bounded-map.js";

/**
 * A small per-app memo of analytics reads. A snapshot never changes once written (a re-rollup writes
 * a new snapshot id), so pages keyed by snapshot id can be kept until evicted; only "which snapshot
 * is the latest" goes stale, and it is kept for a second. Promises are stored, so a burst of
 * identical requests makes one query; a failed load is forgotten.
 */
export type ReadCache = {
  get<T>(key: string, ttlMs: number | null, load: () => Promise<T>): Promise<T>;
};

/**
 * JSON bytes kept per cache at most (pages of 100 rows are ~40 KB; their objects take a few times
 * their JSON in the heap): hundreds of pages, not the thousands a count cap alone allowed.
 */
const MAX_BYTES = 8 * 1_048_576;

export const readCache = (clock: Clock, maxEntries = 5_000, maxBytes = MAX_BYTES): ReadCache => {
  const entries = new BoundedMap<string, { value: Promise<unknown>; expiresAt: number }>(
    maxEntries,
    maxBytes,
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
      value.then(
        (result) => entries.weigh(key, entry, jsonWeight(result)),
        () => entries.delete(key),
      );
      return value;
    },
  };
};
