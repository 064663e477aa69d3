/**
 * Whether a PostgreSQL standby may take reads, from what its last check saw (data/standbys.ts).
 * A standby serves only while it holds the data the caches are keyed on: the data fingerprint it
 * reports (data/data-version.ts, read on it) is the primary's current one. Besides, it must be up,
 * still a standby (a promoted one no longer follows this primary) and no further behind the
 * primary than a bound: its replay is compared with the positions the primary was seen at.
 */

/** A WAL position as PostgreSQL writes it (`16/B374D848`), as a number that orders. */
export const parseLsn = (text: string): bigint => {
  const [high = "", low = ""] = text.split("/");
  return (BigInt(`0x${high}`) << 32n) | BigInt(`0x${low}`);
};

/** Where the primary's WAL was at a moment (clock ms). */
export type PrimaryPosition = { at: number; lsn: bigint };

/** What one check of a standby found. */
export type StandbyCheck =
  | { at: number; ok: true; recovering: boolean; replayed: bigint | null; fingerprint: string }
  | { at: number; ok: false; error: string };

/**
 * How far behind the primary a standby's replay is, in ms: 0 when it has replayed the newest
 * position the primary was seen at; else the age of the oldest position it has not replayed (it
 * lacks what the primary had then). `positions`: oldest first; with none, nothing is known to lag.
 */
export const replayLagMs = (positions: readonly PrimaryPosition[], replayed: bigint, now: number): number => {
  let oldestMissing: number | null = null;
  for (let i = positions.length - 1; i >= 0; i--) {
    const position = positions[i];
    if (!position || position.lsn <= replayed) break;
    oldestMissing = position.at;
  }
  return oldestMissing === null ? 0 : now - oldestMissing;
};

/**
 * down: unreachable, not checked lately, or no longer a standby. lagging: further behind than the
 * bound. behind: within the bound, but without the data of the primary's current fingerprint yet
 * (for a moment after each rollup or import). serving: takes reads.
 */
export type StandbyState = "serving" | "behind" | "lagging" | "down";

export type StandbyRules = { checkMs: number; maxLagMs: number };

/** A check older than this many intervals is not trusted (the standby stopped answering its checks). */
const STALE_CHECKS = 3;

export const standbyState = (
  check: StandbyCheck | null,
  lagMs: number,
  fingerprint: string,
  now: number,
  rules: StandbyRules,
): StandbyState => {
  if (!check?.ok || !check.recovering) return "down";
  if (now - check.at > STALE_CHECKS * rules.checkMs) return "down";
  if (lagMs > rules.maxLagMs) return "lagging";
  return check.fingerprint === fingerprint ? "serving" : "behind";
};
