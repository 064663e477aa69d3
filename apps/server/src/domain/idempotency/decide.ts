import { CONFLICT_RETRY_AFTER_MAX_S } from "./policy.js";

export type StoredResponse = { status: number; headers: Record<string, string>; body: Buffer };

/** An idempotency record as the domain sees it; times are clock milliseconds. */
export type IdempotencyRecord =
  | { state: "in_flight"; fingerprint: string; leaseUntil: number; expiresAt: number }
  | { state: "stored"; fingerprint: string; expiresAt: number; response: StoredResponse };

export type Decision =
  | { kind: "process"; reason: "new" | "expired" | "lease_lapsed" }
  | { kind: "conflict"; retryAfter: number }
  | { kind: "replay"; response: StoredResponse }
  | { kind: "reuse" };

/**
 * Whether a request may claim the key: no record, a record past its 24 hours, or an in-flight
 * record whose holder stopped renewing its lease (it died). data/idempotency.ts applies the same
 * condition inside its atomic claim; keep the two in step.
 */
export const isClaimable = (record: IdempotencyRecord | null, now: number): boolean =>
  record === null || record.expiresAt <= now || (record.state === "in_flight" && record.leaseUntil <= now);

/**
 * The spec's state table for a request carrying a key. While the original is in flight any
 * payload gets 409, as the table says: whether a different payload is a reuse depends on whether
 * the original ends up stored or released.
 */
export const decide = (record: IdempotencyRecord | null, fingerprint: string, now: number): Decision => {
  if (record === null) return { kind: "process", reason: "new" };
  if (record.expiresAt <= now) return { kind: "process", reason: "expired" };
  if (record.state === "in_flight") {
    if (record.leaseUntil <= now) return { kind: "process", reason: "lease_lapsed" };
    const remaining = Math.ceil((record.leaseUntil - now) / 1000);
    return { kind: "conflict", retryAfter: Math.min(Math.max(1, remaining), CONFLICT_RETRY_AFTER_MAX_S) };
  }
  return record.fingerprint === fingerprint
    ? { kind: "replay", response: record.response }
    : { kind: "reuse" };
};
