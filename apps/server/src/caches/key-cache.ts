import type { Clock } from "../clock.js";
import type { KeyRecord } from "../domain/auth/authorize.js";
import { BoundedMap } from "./bounded-map.js";
import type { UnknownKeys } from "./unknown-keys.js";

export type KeyLookup = {
  (hash: string): Promise<KeyRecord | null>;
  /**
   * A cache's answer without a promise, when it holds a fresh one (`record` null: a key known not
   * to exist); undefined: ask the lookup. Authentication runs on every request, and nearly every
   * request's key is cached.
   */
  cached?(hash: string): { readonly record: KeyRecord | null } | undefined;
  /**
   * Whether this process has read a record of the key (an existing key, revoked or not), however
   * long ago, while it is still held: a key this replica has served, not one a client made up.
   */
  known?(hash: string): boolean;
};
/** Many keys in one read: the record of each hash found (a hash missing from the map is unknown). */
export type KeyLookupMany = (hashes: string[]) => Promise<Map<string, KeyRecord>>;

/** The cached answer for a hash in the negative cache. */
const NOT_FOUND = { record: null } as const;

type Entry = {
  record: KeyRecord;
  /** When the read that gave `record` started: the record is trusted until fetchedAt + ttlMs. */
  fetchedAt: number;
  /** Asked for since it was read: only keys in use are read again ahead of time. */
  used: boolean;
};

export type KeyCacheOptions = {
  /** Hashes no row holds (caches/unknown-keys.ts): kept apart, so they never push out keys in use. */
  unknown: UnknownKeys;
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
 * record is trusted for ttlMs from the moment the read that gave it began. A hash found in no row
 * goes to the negative cache (`unknown`, its own lifetime and bounds: caches/unknown-keys.ts says
 * why a new key is never in it), so this one holds existing keys only and a flood of made-up keys
 * cannot evict them. Bounded in size (the least recently used out first) so distinct keys cannot
 * grow it without end; a record past its TTL stays until evicted, for `known`, and is read again
 * before it is trusted. With ttlMs 0 nothing is cached, the negative cache included.
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
  options: KeyCacheOptions,
): KeyLookup => {
  if (ttlMs <= 0) return lookup;
  const maxEntries = options.maxEntries ?? 10_000;
  const { lookupMany, unknown } = options;
  const schedule = options.schedule ?? ((work, delayMs) => setTimeout(work, delayMs).unref());
  const cache = new BoundedMap<string, Entry>(maxEntries, Number.POSITIVE_INFINITY);
  const reading = new Map<string, Promise<KeyRecord | null>>();
  let refreshQueued = false;
  let refreshing = false;

  const store = (hash: string, record: KeyRecord | null, fetchedAt: number) => {
    const existing = cache.peek(hash);
    // A slower read that began earlier must not replace a newer record.
    if (existing && existing.fetchedAt > fetchedAt) return;
    if (record) {
      cache.set(hash, { record, fetchedAt, used: false });
      unknown.delete(hash);
    } else {
      // Its row is gone (or never was): refused from the negative cache from now on.
      cache.delete(hash);
      unknown.add(hash);
    }
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
    if (unknown.has(hash)) return null;
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
  const cached = (hash: string) => fresh(hash, clock.now()) ?? (unknown.has(hash) ? NOT_FOUND : undefined);
  return Object.assign(cachedLookup, { cached, known: (hash: string) => cache.peek(hash) !== undefined });
};
