import type { IdempotencyRecord, StoredResponse } from "./decide.js";

type Stored = Extract<IdempotencyRecord, { state: "stored" }>;

/**
 * Answers this server stored, kept in memory so that their replays need no database round trip: a
 * stored record never changes until it expires (its key can only be claimed again after that), so a
 * copy decides a replay, or a 422 reuse, exactly as the row would. Bounded in bytes of answer
 * bodies, the oldest stored first out; a record not kept here is read from the database as before.
 */
export const storedMemo = (maxBytes = 64 * 1024 * 1024) => {
  const entries = new Map<string, Stored>();
  let bytes = 0;
  const drop = (key: string) => {
    const entry = entries.get(key);
    if (!entry) return;
    bytes -= entry.response.body.length;
    entries.delete(key);
  };
  return {
    get(organizationId: number, key: string, now: number): Stored | null {
      const k = `${organizationId}|${key}`;
      const entry = entries.get(k);
      if (!entry) return null;
      if (entry.expiresAt > now) return entry;
      drop(k);
      return null;
    },
    set(
      organizationId: number,
      key: string,
      record: { fingerprint: string; expiresAt: number; response: StoredResponse },
    ) {
      const k = `${organizationId}|${key}`;
      drop(k);
      if (record.response.body.length > maxBytes) return;
      entries.set(k, { state: "stored", ...record });
      bytes += record.response.body.length;
      while (bytes > maxBytes) {
        const oldest = entries.keys().next().value;
        if (oldest === undefined) break;
        drop(oldest);
      }
    },
  };
};
