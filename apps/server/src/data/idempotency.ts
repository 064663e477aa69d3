import { randomUUID } from "node:crypto";
import type { Decision, IdempotencyRecord, StoredResponse } from "../domain/idempotency/decide.js";
import { decide } from "../domain/idempotency/decide.js";
import { LEASE_MS, PURGE_BATCH, RETENTION_MS } from "../domain/idempotency/policy.js";
import type { Sql } from "./sql.js";
import { prepared } from "./sql.js";
import type { UsageWrite } from "./usage-writes.js";
import { usageWriteStatement } from "./usage-writes.js";

/** A held key: only the holder of `token` may renew, store or release it. */
export type Claim = { organizationId: number; key: string; token: string };

export type ClaimResult =
  | { kind: "claimed"; claim: Claim; takenOver: boolean; prepaid: boolean }
  | Exclude<Decision, { kind: "process" }>;

type Row = {
  fingerprint: string;
  state: string;
  lease_until: Date | null;
  paid_fingerprint: string | null;
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
        paidFingerprint: row.paid_fingerprint,
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

const COLUMNS = "fingerprint, state, lease_until, paid_fingerprint, status, headers, body, expires_at";

export const findRecord = async (
  sql: Sql,
  organizationId: number,
  key: string,
): Promise<IdempotencyRecord | null> => {
  const { rows } = await sql.query<Row>(
    `SELECT ${COLUMNS} FROM idempotency_records WHERE organization_id = $1 AND key = $2`,
    [organizationId, key],
  );
  return rows[0] ? toRecord(rows[0]) : null;
};

/**
 * A fresh claim, or the record that is there, in one round trip: the INSERT claims a key nobody
 * holds; when the key exists it does nothing and the SELECT returns the row with its version
 * (`xmin`, changed by every write to the row) for domain/idempotency/decide.ts to judge. The SELECT
 * sees the table as it was when the statement began: a row another request inserted meanwhile
 * shows as neither inserted nor present, and the claim reads again.
 * $1 organization, $2 key, $3 fingerprint, $4 token, $5 lease until, $6 now, $7 expires at.
 */
const CLAIM_OR_READ = `
WITH inserted AS (
  INSERT INTO idempotency_records
    (organization_id, key, fingerprint, state, claim_token, lease_until, created_at, expires_at)
  VALUES ($1, $2, $3, 'in_flight', $4, $5, $6, $7)
  ON CONFLICT (organization_id, key) DO NOTHING
  RETURNING 1
)
SELECT EXISTS (SELECT 1 FROM inserted) AS inserted, r.xmin::text AS version, ${COLUMNS.split(", ")
  .map((c) => `r.${c}`)
  .join(", ")}
  FROM (SELECT 1) AS one
  LEFT JOIN idempotency_records r ON r.organization_id = $1 AND r.key = $2`;

/**
 * Takes over a record the domain judged claimable, provided nobody wrote to it since it was read
 * (its version is unchanged): of many requests taking over one lapsed key, on any number of servers,
 * exactly one updates the row; the others find a new version and read again.
 * $1 organization, $2 key, $3 version read, $4 fingerprint, $5 token, $6 lease until, $7 now,
 * $8 expires at, $9 what stays paid.
 */
const TAKE_OVER = `
UPDATE idempotency_records SET
  fingerprint = $4, state = 'in_flight', claim_token = $5, lease_until = $6, status = NULL,
  headers = NULL, body = NULL, created_at = $7, expires_at = $8, paid_fingerprint = $9
WHERE organization_id = $1 AND key = $2 AND xmin::text = $3`;

/**
 * Claims `key` for a request with `fingerprint`, or says why not (409, replay, 422 reuse). One round
 * trip for a new key; a key whose record is there is judged by domain/idempotency/decide.ts and,
 * when claimable, taken over with a compare-and-set. Times come from the injected clock, so every
 * server must keep its clock in sync (NTP): the lease and the 24 hours dwarf any skew.
 */
export const claimKey = async (
  sql: Sql,
  input: { organizationId: number; key: string; fingerprint: string; now: number },
): Promise<ClaimResult> => {
  const { organizationId, key, fingerprint, now } = input;
  const times = [new Date(now + LEASE_MS), new Date(now), new Date(now + RETENTION_MS)];
  // The row can change between the read and the take-over (renewed, stored, taken by another
  // request): read and judge it again then.
  for (let attempt = 0; attempt < 3; attempt++) {
    const token = randomUUID();
    const claim = { organizationId, key, token };
    const { rows } = await sql.query<Row & { inserted: boolean; version: string | null }>(
      prepared(CLAIM_OR_READ, [organizationId, key, fingerprint, token, ...times]),
    );
    const row = rows[0];
    if (row?.inserted) return { kind: "claimed", claim, takenOver: false, prepaid: false };
    if (!row?.version) continue;
    const decision = decide(toRecord(row), fingerprint, now);
    if (decision.kind !== "process") return decision;
    const taken = await sql.query(TAKE_OVER, [
      organizationId,
      key,
      row.version,
      fingerprint,
      token,
      ...times,
      decision.paidFingerprint,
    ]);
    if (taken.rowCount === 1) return { kind: "claimed", claim, takenOver: true, prepaid: decision.prepaid };
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

/**
 * The holder's batch units are charged: a retry of the same request after a failure is not charged
 * again. `units`: the units themselves, when nothing else made them durable (an uncapped plan's,
 * otherwise buffered), applied in the same statement, so that a crash cannot leave the mark
 * without them (docs/idempotency.md). They are added even if the claim was lost meanwhile and the
 * mark is not written: the request is served either way.
 */
export const markPaid = async (
  sql: Sql,
  claim: Claim,
  fingerprint: string,
  units: UsageWrite | null,
): Promise<void> => {
  const mark = {
    sql: `UPDATE idempotency_records SET paid_fingerprint = $4
      WHERE organization_id = $1 AND key = $2 AND claim_token = $3 AND state = 'in_flight'`,
    values: [claim.organizationId, claim.key, claim.token, fingerprint],
  };
  await (units ? sql.query(usageWriteStatement(units, mark)) : sql.query(mark.sql, mark.values));
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
