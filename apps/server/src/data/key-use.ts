import { recordKeyUses } from "./keys.js";
import type { Sql } from "./sql.js";

/** When keys were used, written behind the requests: `note` on each, one write a minute for all. */
export type KeyUseRecorder = {
  /** A request was admitted with key `keyId` at `at` (clock ms): kept in memory until the next write. */
  note(keyId: number, at: number): void;
  /** Writes what was noted since the last write (one statement), if anything. */
  flush(): Promise<void>;
  /** Stops the timer and writes what is left; a failed write is reported (`onError`), not thrown. */
  close(): Promise<void>;
};

/**
 * `last_used_at` per key without a write per request: each server notes the keys it admits in
 * memory and writes them every `everyMs` (a minute) in one statement, so a key costs at most one
 * write per server per minute whatever its traffic. A write that fails is retried with the next
 * one (what was noted is kept, the later time winning); a server killed loses at most its last
 * minute, which only makes a key look unused for that minute.
 */
export const keyUseRecorder = (
  sql: Sql,
  { everyMs, onError }: { everyMs: number; onError(error: unknown): void },
): KeyUseRecorder => {
  let pending = new Map<number, number>();
  const flush = async () => {
    if (pending.size === 0) return;
    const writing = pending;
    pending = new Map();
    try {
      await recordKeyUses(sql, writing);
    } catch (error) {
      for (const [keyId, at] of writing) if (!pending.has(keyId)) pending.set(keyId, at);
      throw error;
    }
  };
  const timer = setInterval(() => {
    flush().catch(onError);
  }, everyMs);
  timer.unref();
  return {
    note(keyId, at) {
      pending.set(keyId, at);
    },
    flush,
    async close() {
      clearInterval(timer);
      await flush().catch(onError);
    },
  };
};
