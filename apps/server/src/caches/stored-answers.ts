import type { IdempotencyRecord, StoredResponse } from "../domain/idempotency/decide.js";
import { BoundedMap } from "./bounded-map.js";

type Stored = Extract<IdempotencyRecord, { state: "stored" }>;

export type StoredAnswers = ReturnType<typeof storedAnswers>;

/**
 * Answers this server stored, kept in memory so that their replays need no database round trip: a
 * stored record never changes until it expires (its key can only be claimed again after that), so a
 * copy decides a replay, or a 422 reuse, exactly as the row would. Bounded in bytes of answer
 * bodies, the least recently used out first; a record not kept here is read from the database as
 * before.
 */
export const storedAnswers = (maxBytes = 64 * 1024 * 1024) => {
  const entries = new BoundedMap<string, Stored>(Number.POSITIVE_INFINITY, maxBytes);
  return {
    get(organizationId: number, key: string, now: number): Stored | null {
      const k = `${organizationId}|${key}`;
      const entry = entries.get(k);
      if (!entry) return null;
      if (entry.expiresAt > now) return entry;
      entries.delete(k);
      return null;
    },
    set(
      organizationId: number,
      key: string,
      record: { fingerprint: string; expiresAt: number; response: StoredResponse },
    ) {
      entries.set(`${organizationId}|${key}`, { state: "stored", ...record }, record.response.body.length);
    },
  };
};
