import { CONFLICT_RETRY_AFTER_MAX_S } from "./policy.js";

export type StoredResponse = { status: number; headers: Record<string, string>; body: Buffer };

/**
 * An idempotency record as the domain sees it; times are clock milliseconds. `paidFingerprint` is
 * the payload whose units an earlier holder charged without storing an answer (it died, or its
 * answer was a 5xx): that same payload is not charged again.
 */
export type IdempotencyRecord =
  | {
      state: "in_flight";
      fingerprint: string;
      leaseUntil: number;
      expiresAt: number;
      paidFingerprint?: string | null;
    }
  | { state: "stored"; fingerprint: string; expiresAt: number; response: StoredResponse };

export type Decision =
  | {
      kind: "process";
      reason: "new" | "expired" | "lease_lapsed";
      /** The same payload was charged by the holder it takes over from: rate windows only. */
      prepaid: boolean;
      /** What the taken-over record keeps as paid: nothing once its 24 hours are over. */
      paidFingerprint: string | null;
    }
  | { kind: "conflict"; retryAfter: number }
  | { kind: "replay"; response: StoredResponse }
  | { kind: "reuse" };

/**
 * The spec's state table for a request carrying a key, and the one definition of claimability: a
 * request may claim the key when there is no record, when the record is past its 24 hours, or when
 * it is in flight and its holder stopped renewing the lease (it died). data/idempotency.ts applies
 * this decision to the row it read, with a compare-and-set on the row's version, so no SQL encodes
 * the condition a second time. While the original is in flight any payload gets 409, as the table
 * says: whether a different payload is a reuse depends on whether the original ends up stored or
 * released.
 */
export const decide = (record: IdempotencyRecord | null, fingerprint: string, now: number): Decision => {
  if (record === null) return { kind: "process", reason: "new", prepaid: false, paidFingerprint: null };
  if (record.expiresAt <= now) {
    return { kind: "process", reason: "expired", prepaid: false, paidFingerprint: null };
  }
  if (record.state === "in_flight") {
    if (record.leaseUntil <= now) {
      const paid = record.paidFingerprint ?? null;
      return {
        kind: "process",
        reason: "lease_lapsed",
        prepaid: paid === fingerprint,
        paidFingerprint: paid,
      };
    }
    const remaining = Math.ceil((record.leaseUntil - now) / 1000);
    return { kind: "conflict", retryAfter: Math.min(Math.max(1, remaining), CONFLICT_RETRY_AFTER_MAX_S) };
  }
  return record.fingerprint === fingerprint
    ? { kind: "replay", response: record.response }
    : { kind: "reuse" };
};
