import type { Clock } from "../clock.js";
import { BoundedMap } from "./bounded-map.js";

/** Hashes of well-formed keys that no row holds, each until its lifetime ends. */
export type UnknownKeys = {
  has(hash: string): boolean;
  add(hash: string): void;
  delete(hash: string): void;
};

/** About the bytes an entry holds: the hash's 64 characters and its expiry. */
const ENTRY_WEIGHT = 64 + 8;

/**
 * The negative cache of key lookups: a hash a lookup found no row for is refused from memory for
 * `ttlMs`, so a client that repeats an unknown key costs one lookup per lifetime instead of one per
 * request, and a flood of made-up keys cannot push the keys in use out of the key cache (it holds
 * only keys that exist). Bounded by entries and bytes, recently asked hashes kept over the others.
 *
 * Why a key created a moment ago works at once on every replica, though no replica is told of it:
 * a key is 256 bits of fresh randomness (domain/auth/api-key.ts, the only way the service makes
 * one: data/keys.ts stores no hash it did not generate), so its hash was never presented before it
 * existed and is in no replica's negative cache. A hash enters only after a lookup found no row, and
 * a revoked or expired key keeps its row: it is a known key refused by `authorize`, never "unknown".
 * The short lifetime bounds what the argument does not cover: a row put in by hand with the hash of
 * a key someone had already tried (test/unknown-keys.test.ts shows both cases on two replicas).
 */
export const unknownKeys = (
  clock: Clock,
  { ttlMs, maxEntries, maxBytes }: { ttlMs: number; maxEntries: number; maxBytes: number },
): UnknownKeys => {
  const expiries = new BoundedMap<string, number>(maxEntries, maxBytes);
  return {
    has(hash) {
      const until = expiries.get(hash);
      if (until === undefined) return false;
      if (until > clock.now()) return true;
      expiries.delete(hash);
      return false;
    },
    add(hash) {
      expiries.set(hash, clock.now() + ttlMs, ENTRY_WEIGHT);
    },
    delete(hash) {
      expiries.delete(hash);
    },
  };
};
