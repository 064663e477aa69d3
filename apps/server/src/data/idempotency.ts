import { randomUUID } from "node:crypto";
import type { Decision, IdempotencyRecord, StoredResponse } from "../domain/idempotency/decide.js";
import { decide } from "../domain/idempotency/decide.js";
import { LEASE_MS, PURGE_BATCH, RETENTION_MS } from "../domain/idempotency/policy.js";
import type { Sql } from "./sql.js";

/** A held key: only the holder of `token` may renew, store or release it. */
export type Claim = { organizationId: number; key: string; token: string };

export type ClaimResult =
  | { kind: "claimed"; claim: Claim; takenOver: boolean; prepaid: boolean }
  | Exclude<Decision, { kind: "process" }>;

type Row = {
  fingerprint: string;
  state: string;
  lease_until: Date | null;
  status: number | null;
  headers: Record<string, string> | null;
  body: Buffer | null;
  expires_at: Date;
};

const toRecord = (row: Row): IdempotencyRecord =>
  row.state === "in_flight"
    ? {
        state: "in_flight",
        fingerprint: row.fingerprint,
        leaseUntil: row.lease_until?.getTime() ?? 0,
        expiresAt: row.expires_at.getTime(),
      }
    : {
        state: "stored",
        fingerprint: row.fingerprint,
        expiresAt: row.expires_at.getTime(),
        response: {
          status: row.status ?? 500,
          headers: row.headers ?? {},
          body: row.body ?? Buffer.alloc(0),
        },
      };

export const findRecord = async (
  sql: Sql,
  organizationId: number,
  key: string,
): Promise<IdempotencyRecord | null> => {
  const { rows } = await sql.query<Row>(
    `SELECT fingerprint, state, lease_until, status, headers, body, expires_at
       FROM idempotency_records WHERE organization_id = $1 AND key = $2`,
    [organizationId, key],
  );
  return rows[0] ? toRecord(rows[0]) : null;
};

/**
 * One statement decides who holds a key, so that of many simultaneous requests (on any number of
 * servers) exactly one wins: PostgreSQL serialises the upserts on the primary key, and each loser
 * re-evaluates the WHERE against the winner's row, whose lease is fresh. The WHERE is
 * domain/idempotency/decide.ts's isClaimable: no row, a row past its 24 hours, or a lapsed lease.
 */
const CLAIM = `
INSERT INTO idempotency_records AS r
  (organization_id, key, fingerprint, state, claim_token, lease_until, created_at, expires_at)
VALUES ($1, $2, $3, 'in_flight', $4, $5, $6, $7)
ON CONFLICT (organization_id, key) DO UPDATE SET
  fingerprint = EXCLUDED.fingerprint, state = 'in_flight', claim_token = EXCLUDED.claim_token,
  lease_until = EXCLUDED.lease_until, status = NULL, headers = NULL, body = NULL,
  created_at = EXCLUDED.created_at, expires_at = EXCLUDED.expires_at,
  paid_fingerprint = CASE WHEN r.expires_at <= $6 THEN NULL ELSE r.paid_fingerprint END
WHERE r.expires_at <= $6 OR (r.state = 'in_flight' AND r.lease_until <= $6)
RETURNING (xmax = 0) AS inserted, paid_fingerprint IS NOT DISTINCT FROM $3 AS prepaid`;

/**
 * Claims `key` for a request with `fingerprint`, or says why not (409, replay, 422 reuse). Times come
 * from the injected clock, so every server must keep its clock in sync (NTP): the lease and the
 * 24 hours dwarf any skew.
 */
export const claimKey = async (
  sql: Sql,
  input: { organizationId: number; key: string; fingerprint: string; now: number },
): Promise<ClaimResult> => {
  const { organizationId, key, fingerprint, now } = input;
  // A row can vanish (released) or lapse between the failed claim and the read: try again then.
  for (let attempt = 0; attempt < 3; attempt++) {
    const token = randomUUID();
    const { rows } = await sql.query<{ inserted: boolean; prepaid: boolean }>(CLAIM, [
      organizationId,
      key,
      fingerprint,
      token,
      new Date(now + LEASE_MS),
      new Date(now),
      new Date(now + RETENTION_MS),
    ]);
    const won = rows[0];
    if (won) {
      const claim = { organizationId, key, token };
      return { kind: "claimed", claim, takenOver: !won.inserted, prepaid: won.prepaid };
    }
    const decision = decide(await findRecord(sql, organizationId, key), fingerprint, now);
    if (decision.kind !== "process") return decision;
  }
  return { kind: "conflict", retryAfter: 1 };
};

/** Extends the lease of a held claim; false when the claim was lost (taken over after a lapse). */
export const renewClaim = async (sql: Sql, claim: Claim, now: number): Promise<boolean> => {
  const result = await sql.query(
    `UPDATE idempotency_records SET lease_until = $4
      WHERE organization_id = $1 AND key = $2 AND claim_token = $3 AND state = 'in_flight'`,
    [claim.organizationId, claim.key, claim.token, new Date(now + LEASE_MS)],
  );
  return result.rowCount === 1;
};

/** in flight → stored, for 24 hours from now; false when the claim was lost. */
export const storeResponse = async (
  sql: Sql,
  claim: Claim,
  response: StoredResponse,
  now: number,
): Promise<boolean> => {
  const result = await sql.query(
    `UPDATE idempotency_records
        SET state = 'stored', status = $4, headers = $5, body = $6, expires_at = $7,
            lease_until = NULL, claim_token = NULL
      WHERE organization_id = $1 AND key = $2 AND claim_token = $3 AND state = 'in_flight'`,
    [
      claim.organizationId,
      claim.key,
      claim.token,
      response.status,
      JSON.stringify(response.headers),
      response.body,
      new Date(now + RETENTION_MS),
    ],
  );
  return result.rowCount === 1;
};

/** The holder's batch units are charged: a retry of the same request after a failure is not charged again. */
export const markPaid = async (sql: Sql, claim: Claim, fingerprint: string): Promise<void> => {
  await sql.query(
    `UPDATE idempotency_records SET paid_fingerprint = $4
      WHERE organization_id = $1 AND key = $2 AND claim_token = $3 AND state = 'in_flight'`,
    [claim.organizationId, claim.key, claim.token, fingerprint],
  );
};

/**
 * Frees a held key. A key whose units were paid stays as a lapsed lease, claimable at once but
 * remembering what was paid; an unpaid one is deleted, as if it had never been used.
 */
export const releaseClaim = async (sql: Sql, claim: Claim, now: number): Promise<boolean> => {
  const kept = await sql.query(
    `UPDATE idempotency_records SET claim_token = NULL, lease_until = $4
      WHERE organization_id = $1 AND key = $2 AND claim_token = $3 AND state = 'in_flight'
        AND paid_fingerprint IS NOT NULL`,
    [claim.organizationId, claim.key, claim.token, new Date(now)],
  );
  if (kept.rowCount === 1) return true;
  const result = await sql.query(
    `DELETE FROM idempotency_records
      WHERE organization_id = $1 AND key = $2 AND claim_token = $3 AND state = 'in_flight'`,
    [claim.organizationId, claim.key, claim.token],
  );
  return result.rowCount === 1;
};

/**
 * Deletes records past their 24 hours, PURGE_BATCH rows per statement. Expired records are already
 * treated as absent (the claim takes them over), so purging is housekeeping, never correctness; the
 * WHERE is repeated outside the subquery so a row taken over meanwhile survives.
 */
export const purgeExpired = async (sql: Sql, now: number): Promise<number> => {
  let purged = 0;
  for (;;) {
    const result = await sql.query(
      `DELETE FROM idempotency_records
        WHERE (organization_id, key) IN (
                SELECT organization_id, key FROM idempotency_records WHERE expires_at <= $1 LIMIT $2)
          AND expires_at <= $1`,
      [new Date(now), PURGE_BATCH],
    );
    purged += result.rowCount ?? 0;
    if ((result.rowCount ?? 0) < PURGE_BATCH) return purged;
  }
};
