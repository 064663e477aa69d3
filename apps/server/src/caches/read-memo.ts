import type { ReadCache } from "./read-cache.js";

/** A reader: methods of plain-data arguments (they key the answers) that give promises. */
// biome-ignore lint/suspicious/noExplicitAny: any reader's parameters; `never[]` would refuse them.
export type Reads = Record<string, (...args: any[]) => Promise<unknown>>;

/**
 * Each read of `reader` answered from `cache` for `ttlMs`, keyed by the method's name and its
 * arguments: for data that changes rarely and is read alike by every client (the catalog's first
 * pages), most of the load leaves PostgreSQL, and a change shows within `ttlMs`. ttlMs 0: the
 * reader itself.
 */
export const memoizedReads = <R extends Reads>(reader: R, cache: ReadCache, ttlMs: number): R => {
  if (ttlMs <= 0) return reader;
  const memoized = Object.entries(reader).map(([name, read]) => [
    name,
    (...args: unknown[]) => cache.get(`${name}:${JSON.stringify(args)}`, ttlMs, () => read(...args)),
  ]);
  // Every method of R, each with its own signature: the cache gives back what `read` gave.
  return Object.fromEntries(memoized) as R;
};
