import type { DataVersion } from "../data/data-version.js";
import type { SnapshotRef } from "../data/snapshots.js";
import type { Sql } from "../data/sql.js";
import type { ScoringConfig } from "../domain/analytics/weights.js";
import { loadProfiles } from "./profiles.js";

type Profile = Awaited<ReturnType<typeof loadProfiles>> extends Map<number, infer P> ? P : never;

/**
 * Games' all-consoles profiles per snapshot, kept while the data fingerprint holds (catalog and
 * snapshots unchanged; data/data-version.ts). Batches ask for the same popular games over and over:
 * a 100-item batch was three queries and a hundred rows parsed per request; from here only the
 * games not asked for since the last change are read. Unknown and disabled ids are kept as such.
 * Bounded: the least recently used profile goes first.
 */
export const profileMemo = (version: DataVersion, maxEntries = 50_000) => {
  const entries = new Map<string, { version: string; profile: Profile | null }>();
  return async (
    sql: Sql,
    snapshot: SnapshotRef,
    gameIds: readonly number[],
    scoring: ScoringConfig,
  ): Promise<Map<number, Profile>> => {
    // Captured before reading: what is read after a change is never kept under the older value.
    const { value } = await version.current();
    const found = new Map<number, Profile>();
    const missing: number[] = [];
    for (const id of new Set(gameIds)) {
      const key = `${snapshot.id}:${id}`;
      const hit = entries.get(key);
      if (hit && hit.version === value) {
        entries.delete(key);
        entries.set(key, hit);
        if (hit.profile) found.set(id, hit.profile);
      } else {
        missing.push(id);
      }
    }
    if (missing.length === 0) return found;
    const loaded = await loadProfiles(sql, snapshot, missing, scoring);
    for (const id of missing) {
      const profile = loaded.get(id) ?? null;
      if (profile) found.set(id, profile);
      entries.set(`${snapshot.id}:${id}`, { version: value, profile });
    }
    while (entries.size > maxEntries) {
      const oldest = entries.keys().next().value;
      if (oldest === undefined) break;
      entries.delete(oldest);
    }
    return found;
  };
};
