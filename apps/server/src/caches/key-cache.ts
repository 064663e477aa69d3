import type { Clock } from "../clock.js";
import type { KeyRecord } from "../domain/auth/authorize.js";
import { BoundedMap } from "./bounded-map.js";

export type KeyLookup = {
  (hash: string): Promise<KeyRecord | null>;
  /**
   * A cache's answer without a promise, when it holds a fresh one (`record` null: a key known not
   * to exist); undefined: ask the lookup. Authentication runs on every request, and nearly every
   * request's key is cached.
   */
  cached?(hash: string): { readonly record: KeyRecord | null } | undefined;
};
/** Many keys in one read: the record of each hash found (a hash missing from the map is unknown). */
export type KeyLookupMany = (hashes: string[]) => Promise<Map<string, KeyRecord>>;

type Entry = {
  record: KeyRecord | null;
  /** When the read that gave `record` started: the record is trusted until fetchedAt + ttlMs. */
  fetchedAt: number;
  /** Asked for since it was read: only keys in use are read again ahead of time. */
  used: boolean;
};

export type KeyCacheOptions = {
  maxEntries?: number;
  /**
   * Reads keys in use again before they expire, many in one read. Without it every key in use
   * costs one read per ttlMs (200 keys, 5 s: 40 reads a second, bench:traffic).
   */
  lookupMany?: KeyLookupMany;
  /** Calls deferred work (the batched read); tests pass their own. Default setTimeout. */
  schedule?: (work: () => void, delayMs: number) => void;
  onError?: (error: unknown) => void;
};

/**
 * Caches key lookups per process for `ttlMs`: revocation and status changes take effect within
 * ttlMs at worst (expiry is checked on every request against the clock, cached or not), since a
 * record is trusted for ttlMs from the moment the read that gave it began. Unknown keys are cached
 * too: a key cannot be presented before it exists (it is 256 random bits), and a flood of made-up
 * keys then costs one query per key per TTL instead of one per request. Bounded in size (the
 * least recently used out first) so distinct keys cannot grow it without end.
 *
 * With `lookupMany`, a key asked for after half its TTL is read again ahead of time, together
 * with every other such key, in one read at most every quarter TTL: keys in steady use never
 * expire in a request's path and cost a fraction of a query each, and the bound above is kept.
 * Concurrent misses of one key share one read.
 */
export const cachedKeyLookup = (
  lookup: KeyLookup,
  clock: Clock,
  ttlMs: number,
  options: KeyCacheOptions = {},
): KeyLookup => {
  if (ttlMs <= 0) return lookup;
  const maxEntries = options.maxEntries ?? 10_000;
  const { lookupMany } = options;
  const schedule = options.schedule ?? ((work, delayMs) => setTimeout(work, delayMs).unref());
  const cache = new BoundedMap<string, Entry>(maxEntries, Number.POSITIVE_INFINITY);
  const reading = new Map<string, Promise<KeyRecord | null>>();
  let refreshQueued = false;
  let refreshing = false;

  const store = (hash: string, record: KeyRecord | null, fetchedAt: number) => {
    const existing = cache.peek(hash);
    // A slower read that began earlier must not replace a newer record.
    if (existing && existing.fetchedAt > fetchedAt) return;
    cache.set(hash, { record, fetchedAt, used: false });
  };

  const refresh = async () => {
    refreshQueued = false;
    // One read at a time: keys due meanwhile queue the next one.
    if (!lookupMany || refreshing) return;
    const startedAt = clock.now();
    const due: string[] = [];
    for (const [hash, entry] of cache.entries()) {
      if (entry.used && startedAt - entry.fetchedAt >= ttlMs / 2) due.push(hash);
    }
    if (due.length === 0) return;
    refreshing = true;
    try {
      const records = await lookupMany(due);
      for (const hash of due) store(hash, records.get(hash) ?? null, startedAt);
    } finally {
      refreshing = false;
    }
  };

  const queueRefresh = () => {
    if (refreshQueued || !lookupMany) return;
    refreshQueued = true;
    schedule(
      () => {
        refresh().catch((error: unknown) => options.onError?.(error));
      },
      Math.max(1, Math.floor(ttlMs / 4)),
    );
  };

  const fresh = (hash: string, now: number): Entry | undefined => {
    const hit = cache.get(hash);
    if (!hit || hit.fetchedAt + ttlMs <= now) return undefined;
    hit.used = true;
    if (now - hit.fetchedAt >= ttlMs / 2) queueRefresh();
    return hit;
  };

  const cachedLookup = async (hash: string) => {
    const now = clock.now();
    const hit = fresh(hash, now);
    if (hit) return hit.record;
    const pending = reading.get(hash);
    if (pending) return pending;
    const read = lookup(hash).then(
      (record) => {
        reading.delete(hash);
        store(hash, record, now);
        return record;
      },
      (error: unknown) => {
        reading.delete(hash);
        throw error;
      },
    );
    reading.set(hash, read);
    return read;
  };
  return Object.assign(cachedLookup, { cached: (hash: string) => fresh(hash, clock.now()) });
};
