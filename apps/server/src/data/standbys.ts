import type { Clock } from "../clock.js";
import {
  type PrimaryPosition,
  parseLsn,
  replayLagMs,
  type StandbyCheck,
  type StandbyRules,
  type StandbyState,
  standbyState,
} from "../domain/replicas/standby-state.js";
import { readDataVersion } from "./data-version.js";
import type { Sql } from "./sql.js";
import { isDatabaseUnavailable } from "./unavailable.js";

/** A PostgreSQL standby reads may be sent to (DATABASE_READ_URL). `name`: host:port/database. */
export type Standby = { name: string; sql: Sql };

/** What /readyz and /metrics say of a standby. */
export type StandbyReport = {
  name: string;
  state: StandbyState;
  /** How far behind the primary its replay is (ms); null until a check has reached it. */
  lag_ms: number | null;
  /** Statements it has run for reads, since the start. */
  statements: number;
  error?: string;
};

export type Standbys = {
  /** The next standby (round robin) that serves reads of the data at `fingerprint`; null: none does. */
  pick(fingerprint: string): Standby | null;
  serves(standby: Standby, fingerprint: string): boolean;
  /** Counts a statement `standby` ran for a read. */
  ran(standby: Standby): void;
  /** A statement found `standby` unreachable: down until a check reaches it again. */
  failed(standby: Standby, error: unknown): void;
  report(fingerprint: string): StandbyReport[];
  close(): void;
};

/** The primary's WAL position now. */
const readPrimaryPosition = async (primary: Sql): Promise<bigint> => {
  const { rows } = await primary.query<{ lsn: string }>("SELECT pg_current_wal_lsn()::text AS lsn");
  return parseLsn(rows[0]?.lsn ?? "0/0");
};

/** Whether it still follows a primary, how far it has replayed, and the data fingerprint it holds. */
const checkStandby = async (sql: Sql, at: number): Promise<StandbyCheck> => {
  const { rows } = await sql.query<{ recovering: boolean; replayed: string | null }>(
    "SELECT pg_is_in_recovery() AS recovering, pg_last_wal_replay_lsn()::text AS replayed",
  );
  const row = rows[0];
  return {
    at,
    ok: true,
    recovering: row?.recovering === true,
    replayed: row?.replayed ? parseLsn(row.replayed) : null,
    fingerprint: await readDataVersion(sql),
  };
};

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

/**
 * Watches the standbys of DATABASE_READ_URL: every `checkMs`, where the primary's WAL is and, on
 * each standby, how far it has replayed and which data fingerprint it holds. The primary's
 * positions are kept for as long as the lag bound needs (a lag is the age of the oldest position a
 * standby has not replayed: domain/replicas/standby-state.ts). Reads are routed by read-routing.ts.
 */
export const watchStandbys = (
  primary: Sql,
  standbys: readonly Standby[],
  options: StandbyRules & { clock: Clock; onError?: (error: unknown) => void },
): Standbys => {
  const { clock } = options;
  const positions: PrimaryPosition[] = [];
  const checks = new Map<Standby, StandbyCheck>();
  const statements = new Map<Standby, number>();
  let next = 0;
  const lagOf = (standby: Standby, now: number): number | null => {
    const check = checks.get(standby);
    if (!check?.ok || check.replayed === null) return null;
    return replayLagMs(positions, check.replayed, now);
  };
  const stateOf = (standby: Standby, fingerprint: string, now: number): StandbyState =>
    standbyState(checks.get(standby) ?? null, lagOf(standby, now) ?? 0, fingerprint, now, options);

  // Every `checkMs`; a check still running (a standby slow to answer) is not started again.
  let checking: Promise<void> | null = null;
  const check = () => {
    checking ??= (async () => {
      const at = clock.now();
      try {
        positions.push({ at, lsn: await readPrimaryPosition(primary) });
      } catch (error) {
        // The primary unreachable: no position to compare with, the standbys are checked all the same.
        options.onError?.(error);
      }
      // Enough history to tell a lag past the bound, with a margin of a few checks.
      while (positions.length > 1 && (positions[0]?.at ?? at) < at - options.maxLagMs - 4 * options.checkMs)
        positions.shift();
      await Promise.all(
        standbys.map(async (standby) => {
          const result = await checkStandby(standby.sql, at).catch(
            (error: unknown): StandbyCheck => ({ at, ok: false, error: messageOf(error) }),
          );
          checks.set(standby, result);
        }),
      );
    })().finally(() => {
      checking = null;
    });
    return checking;
  };
  const timer = setInterval(() => void check(), options.checkMs);
  timer.unref();
  void check();

  return {
    pick(fingerprint) {
      const now = clock.now();
      for (let i = 0; i < standbys.length; i++) {
        const standby = standbys[(next + i) % standbys.length];
        if (standby && stateOf(standby, fingerprint, now) === "serving") {
          next = (next + i + 1) % standbys.length;
          return standby;
        }
      }
      return null;
    },
    serves: (standby, fingerprint) => stateOf(standby, fingerprint, clock.now()) === "serving",
    ran: (standby) => statements.set(standby, (statements.get(standby) ?? 0) + 1),
    failed(standby, error) {
      if (!isDatabaseUnavailable(error)) return;
      checks.set(standby, { at: clock.now(), ok: false, error: messageOf(error) });
    },
    report(fingerprint) {
      const now = clock.now();
      return standbys.map((standby) => {
        const check = checks.get(standby);
        return {
          name: standby.name,
          state: stateOf(standby, fingerprint, now),
          lag_ms: lagOf(standby, now),
          statements: statements.get(standby) ?? 0,
          ...(check && !check.ok ? { error: check.error } : {}),
        };
      });
    },
    close: () => clearInterval(timer),
  };
};

/** How a standby is named in /readyz and /metrics: its address, never its credentials. */
export const standbyName = (url: string): string => {
  const parsed = new URL(url);
  return `${parsed.hostname}:${parsed.port || "5432"}${parsed.pathname}`;
};
