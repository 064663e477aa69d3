import type { Clock } from "../clock.js";
import { BoundedMap, jsonWeight } from "./bounded-map.js";

/**
 * Reads kept per key, each for the TTL its caller gives (null: until evicted). Promises are stored,
 * so a burst of identical requests makes one query; a failed load is forgotten. Used for which
 * snapshot a period and date read (a second), for pages of a snapshot (a snapshot never changes once
 * written: kept while the catalog they are joined with holds) and for catalog reads (read-memo.ts).
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
