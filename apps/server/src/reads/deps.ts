import type { Clock } from "../clock.js";
import type { Config } from "../config.js";
import { type CatalogReader, catalogReader } from "../data/catalog-reader.js";
import type { DataVersion } from "../data/data-version.js";
import type { Sql } from "../data/sql.js";
import type { ScoringConfig } from "../domain/analytics/weights.js";
import type { AccountUsage } from "./account.js";
import { profileMemo } from "./profile-memo.js";
import { loadProfiles } from "./profiles.js";
import { type ReadCache, readCache } from "./read-cache.js";
import { scoringOf } from "./scoring.js";

/**
 * What every read needs, built once per app (`readDeps`, called by app.ts) and shared by every
 * route: the database, the clock, the settings reads use, and the caches under the answers. The
 * whole-response cache sits above these, in routes/ (it is HTTP: keyed by URL, it hands Fastify
 * the serialized answer).
 */
export type ReadDeps = {
  sql: Sql;
  clock: Clock;
  /** /me's usage figures. */
  usage: AccountUsage;
  scoring: ScoringConfig;
  /** Signs and checks list cursors. */
  cursorSecret: string;
  /** Catalog reads, kept CATALOG_CACHE_TTL_MS. */
  catalog: CatalogReader;
  /** Which snapshot a period and date read: kept a second (reads/snapshot.ts). */
  snapshots: ReadCache;
  /**
   * Pages of a snapshot's ranked lists. A snapshot never changes, but its rows are joined with the
   * catalog (names, prices) when read: `pageKey` keys them by the data fingerprint too.
   */
  pages: ReadCache;
  /** What a kept page depends on besides the snapshot: the data fingerprint, or a second of time. */
  pageKey(): Promise<{ key: string; ttlMs: number | null }>;
  /** Games' all-consoles profiles: kept while the data fingerprint holds, when there is one. */
  profiles: typeof loadProfiles;
};

/** JSON bytes of pages kept (the two list routers had 8 MB each before they shared one cache). */
const PAGE_BYTES = 16 * 1_048_576;

/**
 * The read caches, each built once. `version`: the data fingerprint, null when answer caches are
 * off (RESPONSE_CACHE_TTL_MS=0), in which case profiles are read every time.
 */
export const readDeps = (options: {
  sql: Sql;
  clock: Clock;
  usage: AccountUsage;
  config: Pick<Config, "cursorSecret" | "analytics" | "catalogCacheTtlMs">;
  version: DataVersion | null;
}): ReadDeps => {
  const { sql, clock, usage, config, version } = options;
  return {
    sql,
    clock,
    usage,
    scoring: scoringOf(config.analytics),
    cursorSecret: config.cursorSecret,
    catalog: catalogReader(sql, { ttlMs: config.catalogCacheTtlMs, clock }),
    snapshots: readCache(clock, 1_000),
    pages: readCache(clock, 10_000, PAGE_BYTES),
    // Captured before the page is read: rows read after a catalog change never live under the old value.
    pageKey: version
      ? async () => ({ key: (await version.current()).value, ttlMs: null })
      : async () => ({ key: "", ttlMs: 1_000 }),
    profiles: version ? profileMemo(version) : loadProfiles,
  };
};
