import type { Clock } from "../clock.js";

/**
 * A small per-app memo of analytics reads. A snapshot never changes once written (a re-rollup writes
 * a new snapshot id), so pages keyed by snapshot id can be kept until evicted; only "which snapshot
 * is the latest" goes stale, and it is kept for a second. Promises are stored, so a burst of
 * identical requests makes one query; a failed load is forgotten.
 */
export type ReadCache = {
  get<T>(key: string, ttlMs: number | null, load: () => Promise<T>): Promise<T>;
};

export const readCache = (clock: Clock, maxEntries = 5_000): ReadCache => {
  const entries = new Map<string, { value: Promise<unknown>; expiresAt: number }>();
  return {
    get<T>(key: string, ttlMs: number | null, load: () => Promise<T>): Promise<T> {
      const now = clock.now();
      const hit = entries.get(key);
      if (hit && hit.expiresAt > now) {
        // Re-inserted: the Map's order is the eviction order (least recently used first).
        entries.delete(key);
        entries.set(key, hit);
        return hit.value as Promise<T>;
      }
      const value = load();
      entries.set(key, { value, expiresAt: ttlMs === null ? Number.POSITIVE_INFINITY : now + ttlMs });
      value.catch(() => entries.delete(key));
      if (entries.size > maxEntries) {
        const oldest = entries.keys().next().value;
        if (oldest !== undefined) entries.delete(oldest);
      }
      return value;
    },
  };
};
