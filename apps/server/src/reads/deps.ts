import type { AccountRecord, PlanLimits } from "@gmi/contract";
import type { Caches } from "../caches/index.js";
import type { ReadCache } from "../caches/read-cache.js";
import type { Clock } from "../clock.js";
import type { Config } from "../config.js";
import { scoringOf } from "../config.js";
import { type CatalogReader, catalogReader } from "../data/catalog-reader.js";
import type { ReadRouting } from "../data/read-routing.js";
import type { SnapshotRef } from "../data/snapshots.js";
import type { Sql } from "../data/sql.js";
import type { ScoringConfig } from "../domain/analytics/weights.js";
import { loadProfiles } from "./profiles.js";

type Profiles = Awaited<ReturnType<typeof loadProfiles>>;

/** An organization's usage as /me shows it, read live and charging nothing (metering/account-usage.ts). */
export type AccountUsage = (organizationId: number, plan: PlanLimits) => Promise<AccountRecord["usage"]>;

/**
 * What every read needs, built once per app (`readDeps`, called by app.ts) and shared by every
 * route: the database, the clock, the settings reads use, and the batches' caches (from
 * caches/index.ts; the whole-response cache above the GETs is the routes').
 */
export type ReadDeps = {
  /** Where reads run: the primary, or a standby (data/read-routing.ts). */
  sql: Sql;
  /** Runs the reads of one answer on one server (data/read-routing.ts); the routes wrap each in it. */
  oneServer: ReadRouting["oneServer"];
  clock: Clock;
  /** /me's usage figures. */
  usage: AccountUsage;
  scoring: ScoringConfig;
  /** Signs and checks list cursors. */
  cursorSecret: string;
  /** The catalog's reads, one statement each (nothing kept under the answers: caches.md). */
  catalog: CatalogReader;
  /** Which snapshot a batch reads, kept a second (a GET resolves it in its own statement). */
  snapshots: ReadCache;
  /** Games' all-consoles profiles in a snapshot (an id missing: unknown or disabled game). */
  profiles(snapshot: SnapshotRef, gameIds: readonly number[]): Promise<Profiles>;
};

export const readDeps = (options: {
  routing: ReadRouting;
  clock: Clock;
  usage: AccountUsage;
  config: Pick<Config, "cursorSecret" | "analytics">;
  caches: Caches;
}): ReadDeps => {
  const { routing, clock, usage, config, caches } = options;
  const { sql } = routing;
  const scoring = scoringOf(config.analytics);
  return {
    sql,
    oneServer: routing.oneServer,
    clock,
    usage,
    scoring,
    cursorSecret: config.cursorSecret,
    catalog: catalogReader(sql),
    snapshots: caches.snapshots,
    profiles: (snapshot, gameIds) =>
      caches.profiles(snapshot.id, gameIds, (missing) => loadProfiles(sql, snapshot, missing, scoring)),
  };
};
