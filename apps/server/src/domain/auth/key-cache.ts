import type { Clock } from "../../clock.js";
import type { KeyRecord } from "./authorize.js";

export type KeyLookup = (hash: string) => Promise<KeyRecord | null>;

/**
 * Caches key lookups per process for `ttlMs`: revocation and status changes take effect within
 * ttlMs at worst (expiry is checked on every request against the clock, cached or not). Unknown
 * keys are cached too: a key cannot be presented before it exists (it is 256 random bits), and a
 * flood of made-up keys then costs one query per key per TTL instead of one per request. Bounded
 * in size (oldest entry out first) so distinct keys cannot grow it without end.
 */
export const cachedKeyLookup = (
  lookup: KeyLookup,
  clock: Clock,
  ttlMs: number,
  maxEntries = 10_000,
): KeyLookup => {
  if (ttlMs <= 0) return lookup;
  const cache = new Map<string, { record: KeyRecord | null; until: number }>();
  return async (hash) => {
    const now = clock.now();
    const hit = cache.get(hash);
    if (hit && hit.until > now) return hit.record;
    const record = await lookup(hash);
    cache.delete(hash);
    if (cache.size >= maxEntries) {
      const oldest = cache.keys().next().value;
      if (oldest !== undefined) cache.delete(oldest);
    }
    cache.set(hash, { record, until: now + ttlMs });
    return record;
  };
};
