import type { PresentedKey } from "../domain/auth/api-key.js";
import { presentedKey } from "../domain/auth/api-key.js";
import { BoundedMap } from "./bounded-map.js";

/** What a header presents; a key's hash is `kept` when it came from the reader's memory. */
export type ReadKey =
  | Exclude<PresentedKey, { readonly hash: string }>
  | { readonly hash: string; readonly kept?: true };

export type PresentedKeyReader = {
  (header: string | undefined): ReadKey;
  /** Keeps the hash of a header whose key exists (its record was read): its next requests skip the hashing. */
  keep(header: string, hash: string): void;
};

/**
 * Reads the key an Authorization header presents, and keeps what it read for the headers of keys
 * that exist: a client sends the same header on every request, and parsing it and hashing the key
 * (about 0.5 us) costs ten times finding it here. The keys in use then sit in memory beside their
 * hashes: storing only hashes guards against a leak of the database, and every request's key
 * passes through memory anyway. Bounded; and a made-up key's header is never kept, so a flood of
 * them neither pushes out the headers of keys in use nor pays for an insert (which, in a bounded
 * map turning over a new entry per request, cost 13 us against the hashing's 1: bench:traffic,
 * "unknown keys").
 */
export const presentedKeyReader = (maxEntries: number): PresentedKeyReader => {
  const known = new BoundedMap<string, { hash: string; kept: true }>(maxEntries, Number.POSITIVE_INFINITY);
  const read = (header: string | undefined): ReadKey =>
    (header === undefined ? undefined : known.get(header)) ?? presentedKey(header);
  return Object.assign(read, {
    keep: (header: string, hash: string) => known.set(header, { hash, kept: true as const }),
  });
};
