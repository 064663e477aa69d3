import type { Clock } from "../clock.js";
import type { Config } from "../config.js";
import type { KeyRecord } from "../domain/auth/authorize.js";
import { type BlockedClients, blockedClients } from "./blocked-clients.js";
import type { DataVersion } from "./data-version.js";
import { cachedKeyLookup, type KeyLookup, type KeyLookupMany } from "./key-cache.js";
import { type PresentedKeyReader, presentedKeyReader } from "./presented-keys.js";
import { type ProfileMemo, profileMemo } from "./profile-memo.js";
import { type ReadCache, readCache } from "./read-cache.js";
import { type ResponseCache, responseCache } from "./response-cache.js";
import { type StoredAnswers, storedAnswers } from "./stored-answers.js";
import { unknownKeys } from "./unknown-keys.js";

/** Where the caches read what they do not hold. */
export type CacheSources = {
  /** One key's record by its hash; null: no such key. */
  key(hash: string): Promise<KeyRecord | null>;
  /** Many keys' records in one read (the read-ahead of keys in use). */
  keys: KeyLookupMany;
  /**
   * The fingerprint of the data answers are built from (data/data-version.ts), read at most once a
   * second (`trackVersion`): app.ts builds it, as the standbys' routing checks it too.
   */
  version: DataVersion;
  /** A read the caches make on their own, outside any request (the keys' read-ahead), failed. */
  onError(error: unknown): void;
};

/** Every per-process cache (docs/architecture.md, Caches), built once per app by `makeCaches`. */
export type Caches = {
  /**
   * Key records by hash: AUTH_CACHE_TTL_MS, keys in use read again ahead of expiry; hashes of no key
   * in a negative cache of their own (caches/unknown-keys.ts): UNKNOWN_KEY_TTL_MS.
   */
  keys: KeyLookup;
  /** Clients past the failed-authentication limit, until their minute ends (metering/auth-failures.ts). */
  blockedClients: BlockedClients;
  /** Authorization header → the hash of the key it presents. */
  presentedKeys: PresentedKeyReader;
  /** Whole answers of GET routes (but /me), serialized. */
  responses: ResponseCache;
  /**
   * Which snapshot a batch reads: kept a second (reads/snapshot.ts). A GET resolves its snapshot in
   * its one statement and keeps nothing under its answer (docs/internals/caches.md).
   */
  snapshots: ReadCache;
  /** Games' all-consoles profiles per snapshot, for the batches: while the data fingerprint holds. */
  profiles: ProfileMemo;
  /** Batch answers this server stored under an Idempotency-Key, for their replays. */
  storedAnswers: StoredAnswers;
};

/** Authorization headers whose keys' hashes are kept: as many as the key records kept. */
const HEADERS_KEPT = 10_000;
/**
 * How long a hash no key has is refused from memory. Short, though a new key is never in it
 * (caches/unknown-keys.ts): it bounds how long a row written by hand for a key already tried waits.
 */
const UNKNOWN_KEY_TTL_MS = 60_000;
/** Hashes of unknown keys kept: by entries, and by bytes at 72 counted per hash. */
const UNKNOWN_KEYS = { maxEntries: 100_000, maxBytes: 8 * 1_048_576 };
/** Clients blocked at once; one evicted early is refused again at its next failure (blocked-clients.ts). */
const BLOCKED_CLIENTS = 100_000;
/** How long an answer is kept while the data it was built from is unchanged. */
const ANSWER_MAX_AGE_MS = 600_000;

/**
 * Builds every cache once (app.ts, once per app); routes, plugins and reads are handed theirs and
 * build none of their own. Answers are kept while the data fingerprint holds only when the response
 * cache is on (RESPONSE_CACHE_TTL_MS > 0); off, profiles are read every time.
 */
export const makeCaches = (
  config: Pick<Config, "authCacheTtlMs" | "responseCacheTtlMs">,
  clock: Clock,
  sources: CacheSources,
): Caches => {
  // Data changes (imports, rollups, edits by hand) show in kept answers within a second.
  const { version } = sources;
  const whileUnchanged = config.responseCacheTtlMs > 0 ? version : null;
  return {
    keys: cachedKeyLookup(sources.key, clock, config.authCacheTtlMs, {
      unknown: unknownKeys(clock, { ttlMs: UNKNOWN_KEY_TTL_MS, ...UNKNOWN_KEYS }),
      lookupMany: sources.keys,
      onError: sources.onError,
    }),
    blockedClients: blockedClients(BLOCKED_CLIENTS),
    presentedKeys: presentedKeyReader(HEADERS_KEPT),
    responses: responseCache(clock, config.responseCacheTtlMs, {
      revalidation: {
        version,
        maxAgeMs: ANSWER_MAX_AGE_MS,
        // The fingerprint is read once a second: a read that began before it moved may give the older data.
        settleMs: 1_000,
      },
    }),
    snapshots: readCache(clock, 1_000),
    profiles: profileMemo(whileUnchanged),
    storedAnswers: storedAnswers(),
  };
};
