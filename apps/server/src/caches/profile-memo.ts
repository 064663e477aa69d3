import { BoundedMap } from "./bounded-map.js";
import type { DataVersion } from "./data-version.js";

/** Reads the profiles of games not kept: a game missing from the map is unknown or disabled. */
export type ProfileLoad<P> = (gameIds: readonly number[]) => Promise<Map<number, P>>;

/** Games' profiles in one snapshot, those kept and those `load` reads. */
export type ProfileMemo = <P>(
  snapshotId: number,
  gameIds: readonly number[],
  load: ProfileLoad<P>,
) => Promise<Map<number, P>>;

/**
 * Games' all-consoles profiles per snapshot, kept while the data fingerprint holds (catalog and
 * snapshots unchanged; caches/data-version.ts). Batches ask for the same popular games over and
 * over: a 100-item batch was three queries and a hundred rows parsed per request; from here only the
 * games not asked for since the last change are read. Unknown and disabled ids are kept as such.
 * Bounded: the least recently used profile goes first. Without a fingerprint (answer caches off),
 * every profile is read.
 */
export const profileMemo = (version: DataVersion | null, maxEntries = 50_000): ProfileMemo => {
  if (!version) return (_snapshotId, gameIds, load) => load(gameIds);
  const entries = new BoundedMap<string, { version: string; profile: unknown }>(
    maxEntries,
    Number.POSITIVE_INFINITY,
  );
  return async <P>(snapshotId: number, gameIds: readonly number[], load: ProfileLoad<P>) => {
    // Captured before reading: what is read after a change is never kept under the older value.
    const { value } = await version.current();
    const found = new Map<number, P>();
    const missing: number[] = [];
    for (const id of new Set(gameIds)) {
      const hit = entries.get(`${snapshotId}:${id}`);
      if (hit && hit.version === value) {
        // Kept by the load of this snapshot's profiles: the same P.
        if (hit.profile !== null) found.set(id, hit.profile as P);
      } else {
        missing.push(id);
      }
    }
    if (missing.length === 0) return found;
    const loaded = await load(missing);
    for (const id of missing) {
      const profile = loaded.get(id) ?? null;
      if (profile !== null) found.set(id, profile);
      entries.set(`${snapshotId}:${id}`, { version: value, profile });
    }
    return found;
  };
};
