import { BoundedMap } from "../caches/bounded-map.js";
import { type Clock, systemClock } from "../clock.js";
import type { Sql } from "../data/sql.js";
import { withReadTimeout } from "../data/sql.js";
import { billingMonth, monthStartsAt } from "../domain/limits/windows.js";

/** An organization-month, as the usage store keys its counts. */
export const usageKey = (organizationId: number, month: string) => `${organizationId}|${month}`;

export const splitUsageKey = (key: string): { organizationId: number; month: string } => {
  const [org, month] = key.split("|");
  return { organizationId: Number(org), month: month ?? "" };
};

/** Rows whose last read is kept (an organization-month each, small): /me of this many organizations. */
const ROWS_KEPT = 10_000;

/**
 * usage_months rows as this server reads and writes them. A read for GET /me is kept at most
 * `flushMs` while this server does not write the row: the row is the sum of every server's flushes
 * and reservations, and another server's requests reach it only at its next flush anyway. Any write
 * of this server to the row, begun or ended (`writing`), makes the next read go to the row, so on
 * one server the usage /me shows is exact. A read waits at most `waitMs` (withReadTimeout).
 */
export const usageRows = (
  sql: Sql,
  { flushMs, waitMs, clock = systemClock }: { flushMs: number; waitMs: number; clock?: Clock },
) => {
  const reads = withReadTimeout(sql, waitMs);
  /** Writes of this server to each row, counted as they begin and as they end. */
  const writes = new Map<string, number>();
  /** The last read of each row, valid while no write of this server to it began or ended since. */
  const kept = new BoundedMap<string, { used: number; writes: number; readAt: number }>(
    ROWS_KEPT,
    Number.POSITIVE_INFINITY,
  );
  const count = (keys: string[]) => {
    for (const k of keys) writes.set(k, (writes.get(k) ?? 0) + 1);
  };

  const read = async (organizationId: number, month: string) => {
    const result = await reads.query<{ used: string }>(
      "SELECT used::text FROM usage_months WHERE organization_id = $1 AND month = $2",
      [organizationId, month],
    );
    return Number(result.rows[0]?.used ?? 0);
  };

  return {
    read,

    /** The row's count, read at most once per flushMs while this server does not write it. */
    async readRecently(organizationId: number, month: string) {
      const k = usageKey(organizationId, month);
      const before = writes.get(k) ?? 0;
      const now = clock.now();
      const known = kept.get(k);
      if (known && known.writes === before && now - known.readAt < flushMs) return known.used;
      const used = await read(organizationId, month);
      if ((writes.get(k) ?? 0) === before) kept.set(k, { used, writes: before, readAt: now });
      else kept.delete(k);
      return used;
    },

    /** Runs a write of this server to the rows of `keys`, counted as it begins and as it ends. */
    async writing<T>(keys: string[], work: () => Promise<T>): Promise<T> {
      count(keys);
      try {
        return await work();
      } finally {
        count(keys);
      }
    },

    /** Write counts are kept for this month and the last (run at each flush). */
    forgetOldMonths() {
      const now = clock.now();
      const current = billingMonth(now);
      const previous = billingMonth(monthStartsAt(now) - 1);
      for (const k of writes.keys()) {
        const { month } = splitUsageKey(k);
        if (month !== current && month !== previous) writes.delete(k);
      }
    },
  };
};

export type UsageRows = ReturnType<typeof usageRows>;
