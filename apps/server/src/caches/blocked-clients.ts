import { BoundedMap } from "./bounded-map.js";

/** Clients refused before any key lookup, each until its failed-authentication window ends. */
export type BlockedClients = {
  /** When the client's block ends (clock milliseconds), if it is blocked at `now`. */
  until(client: string, now: number): number | null;
  block(client: string, until: number): void;
};

/** About the bytes an entry holds: the client (an address, at most an IPv6 /64's 25 characters) and its end. */
const ENTRY_WEIGHT = 32 + 8;

/**
 * The clients this replica found past the failed-authentication limit (metering/auth-failures.ts),
 * so their next requests are refused from memory, without a lookup and without asking the shared
 * count again. Bounded: a client evicted early is only asked about again at its next failure,
 * which the shared count refuses at once.
 */
export const blockedClients = (maxEntries: number): BlockedClients => {
  const ends = new BoundedMap<string, number>(maxEntries, maxEntries * ENTRY_WEIGHT);
  return {
    until(client, now) {
      const end = ends.get(client);
      if (end === undefined) return null;
      if (end > now) return end;
      ends.delete(client);
      return null;
    },
    block(client, until) {
      ends.set(client, until, ENTRY_WEIGHT);
    },
  };
};
