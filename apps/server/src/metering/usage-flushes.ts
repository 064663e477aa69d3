import { randomUUID } from "node:crypto";
import { type Clock, systemClock } from "../clock.js";
import type { Sql } from "../data/sql.js";
import type { UsageWrite } from "../data/usage-writes.js";
import { purgeUsageWriteIds, usageWriteStatement } from "../data/usage-writes.js";
import type { UsageRows } from "./usage-rows.js";
import { splitUsageKey } from "./usage-rows.js";

/** The ids of applied writes are purged about this often, by whichever flush comes first. */
const PURGE_EVERY_MS = 3_600_000;

/** Counts by organization-month (usageKey), not yet known to be in usage_months, under one write id. */
type Unconfirmed = { id: string; deltas: Map<string, number> };

const toWrite = ({ id, deltas }: Unconfirmed): UsageWrite => ({
  id,
  counts: [...deltas].map(([k, units]) => ({ ...splitUsageKey(k), units })),
});

/**
 * This server's counts on their way to usage_months: uncapped charges (Enterprise, Pro's overage)
 * buffered in memory, and the writes not known to be applied. Each interval the buffer and the
 * units of ended quota leases (given back, negative) become one write with an id of its own
 * (data/usage-writes.ts: applied once however often it is tried). A write that fails (applied or
 * not: the answer was lost) is tried again as it is at the next flush, before the new counts.
 *
 * A keyed batch's uncapped units skip the buffer (`writeWith`): they are written by the statement of
 * its paid mark, so that the two are durable together (issue 26 item 6).
 */
export const usageFlushLog = (
  sql: Sql,
  {
    rows,
    onError,
    clock = systemClock,
  }: { rows: UsageRows; onError?: (error: unknown) => void; clock?: Clock },
) => {
  let buffered = new Map<string, number>();
  let unconfirmed: Unconfirmed[] = [];
  /** Writes a caller's statement is applying now (`writeWith`). */
  const applying = new Set<Unconfirmed>();
  let purgedAt = clock.now();

  const purgeIds = () => {
    if (clock.now() - purgedAt < PURGE_EVERY_MS) return;
    purgedAt = clock.now();
    purgeUsageWriteIds(sql).catch((error: unknown) => onError?.(error));
  };

  const sumOf = (writes: Iterable<Unconfirmed>, k: string) => {
    let sum = 0;
    for (const w of writes) sum += w.deltas.get(k) ?? 0;
    return sum;
  };

  return {
    buffer(k: string, units: number) {
      buffered.set(k, (buffered.get(k) ?? 0) + units);
    },

    /** This server's counts not known to be in the row: buffered, being written, or not confirmed. */
    notInRow: (k: string) => (buffered.get(k) ?? 0) + sumOf(unconfirmed, k) + sumOf(applying, k),

    /**
     * `units` written by `write`, a statement of the caller's that applies them (`usageWriteStatement`
     * with what must be durable together with them), instead of the buffer. If it fails, the next
     * flush applies them, by their id: once, whether or not the failed statement landed.
     */
    async writeWith(k: string, units: number, write: (units: UsageWrite) => Promise<void>) {
      const own: Unconfirmed = { id: randomUUID(), deltas: new Map([[k, units]]) };
      applying.add(own);
      try {
        await rows.writing([k], () => write(toWrite(own)));
      } catch (error) {
        unconfirmed.push(own);
        throw error;
      } finally {
        applying.delete(own);
      }
    },

    /** Writes the buffer and `givenBack` (units of ended leases, by key) as one write, after any not confirmed. */
    async flush(givenBack: Array<[string, number]>) {
      const deltas = buffered;
      buffered = new Map();
      for (const [k, units] of givenBack) deltas.set(k, (deltas.get(k) ?? 0) - units);
      for (const [k, n] of deltas) if (n === 0) deltas.delete(k);
      if (deltas.size > 0) unconfirmed.push({ id: randomUUID(), deltas });
      const writes = [...unconfirmed];
      await rows.writing(
        writes.flatMap((w) => [...w.deltas.keys()]),
        async () => {
          // In order; a failure leaves it and the ones after it for the next flush.
          for (const current of writes) {
            await sql.query(usageWriteStatement(toWrite(current)));
            unconfirmed = unconfirmed.filter((w) => w !== current);
          }
        },
      );
      purgeIds();
    },
  };
};
