import type { PlanLimits, Scope } from "@gmi/contract";
import { generateApiKey } from "../domain/auth/api-key.js";
import type { KeyRecord } from "../domain/auth/authorize.js";
import type { Sql } from "./sql.js";
import { prepared } from "./sql.js";

export type ApiKeySummary = {
  id: number;
  organization_id: number;
  client_id: number | null;
  name: string;
  last_four: string;
  scopes: Scope[];
  created_at: Date;
  expires_at: Date | null;
  revoked_at: Date | null;
  /** When a server last admitted a request with it, to the minute (data/key-use.ts); null: never. */
  last_used_at: Date | null;
};

/** Never selects key_hash: nothing outside the lookup below needs it. */
const SUMMARY =
  "id, organization_id, client_id, name, last_four, scopes, created_at, expires_at, revoked_at, last_used_at";

/**
 * Not exported: a row is only ever written for a key `issueApiKey` generated, so every stored hash
 * is of fresh randomness no client presented before (the negative cache relies on it:
 * caches/unknown-keys.ts).
 */
const insertApiKey = async (
  sql: Sql,
  input: {
    organizationId: number;
    clientId: number | null;
    name: string;
    hash: string;
    lastFour: string;
    scopes: Scope[];
    expiresAt: Date | null;
  },
): Promise<ApiKeySummary> => {
  const result = await sql.query<ApiKeySummary>(
    `INSERT INTO api_keys (organization_id, client_id, name, key_hash, last_four, scopes, expires_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING ${SUMMARY}`,
    [
      input.organizationId,
      input.clientId,
      input.name,
      input.hash,
      input.lastFour,
      input.scopes,
      input.expiresAt,
    ],
  );
  const row = result.rows[0];
  if (!row) throw new Error("api key insert returned nothing");
  return row;
};

/** Revoking twice keeps the first revocation time. Null when no such key. */
export const revokeApiKey = async (sql: Sql, id: number, at: Date): Promise<ApiKeySummary | null> =>
  (
    await sql.query<ApiKeySummary>(
      `UPDATE api_keys SET revoked_at = COALESCE(revoked_at, $2) WHERE id = $1 RETURNING ${SUMMARY}`,
      [id, at],
    )
  ).rows[0] ?? null;

export const listApiKeys = async (sql: Sql, organizationId: number): Promise<ApiKeySummary[]> =>
  (
    await sql.query<ApiKeySummary>(`SELECT ${SUMMARY} FROM api_keys WHERE organization_id = $1 ORDER BY id`, [
      organizationId,
    ])
  ).rows;

type LookupRow = {
  key_hash: string;
  key_id: number;
  key_name: string;
  last_four: string;
  scopes: Scope[];
  expires_at: Date | null;
  revoked_at: Date | null;
  org_id: number;
  org_name: string;
  org_status: string;
  client_id: number | null;
  client_status: string | null;
  /** The plans row as JSON: its columns are PlanLimits' fields. */
  plan: PlanLimits;
};

/** Everything a request needs about a key, by its hash. */
const LOOKUP = `SELECT k.key_hash, k.id AS key_id, k.name AS key_name, k.last_four, k.scopes, k.expires_at,
       k.revoked_at, o.id AS org_id, o.name AS org_name, o.status AS org_status,
       c.id AS client_id, c.status AS client_status,
       to_jsonb(p) AS plan
     FROM api_keys k
     JOIN organizations o ON o.id = k.organization_id
     JOIN plans p ON p.slug = o.plan_slug
     LEFT JOIN api_clients c ON c.id = k.client_id`;

const recordOf = (row: LookupRow): KeyRecord => ({
  keyId: row.key_id,
  keyName: row.key_name,
  lastFour: row.last_four,
  scopes: row.scopes ?? [],
  expiresAt: row.expires_at?.getTime() ?? null,
  revokedAt: row.revoked_at?.getTime() ?? null,
  organization: { id: row.org_id, name: row.org_name, status: row.org_status },
  client: row.client_id === null ? null : { id: row.client_id, status: row.client_status ?? "active" },
  plan: row.plan,
});

/** The hot path of authentication: one indexed lookup by key hash with everything a request needs. */
export const findKeyByHash = async (sql: Sql, hash: string): Promise<KeyRecord | null> => {
  const result = await sql.query<LookupRow>(prepared(`${LOOKUP} WHERE k.key_hash = $1`, [hash]));
  const row = result.rows[0];
  return row ? recordOf(row) : null;
};

/** Many keys in one round trip (the key cache's read ahead); hashes not found are absent. */
export const findKeysByHash = async (sql: Sql, hashes: string[]): Promise<Map<string, KeyRecord>> => {
  const result = await sql.query<LookupRow>(
    prepared(`${LOOKUP} WHERE k.key_hash = ANY($1::text[])`, [hashes]),
  );
  return new Map(result.rows.map((row) => [row.key_hash, recordOf(row)]));
};

/** Generates a key and stores its hash; the only time the key itself exists. */
export const issueApiKey = async (
  sql: Sql,
  input: {
    organizationId: number;
    clientId: number | null;
    name: string;
    scopes: Scope[];
    expiresAt: Date | null;
  },
): Promise<ApiKeySummary & { key: string }> => {
  const generated = generateApiKey();
  const summary = await insertApiKey(sql, { ...input, hash: generated.hash, lastFour: generated.lastFour });
  return { ...summary, key: generated.key };
};

/**
 * Records when keys were last used, many in one statement (data/key-use.ts buffers them): a time
 * never moves back, so servers that write in any order leave the latest.
 */
export const recordKeyUses = async (sql: Sql, uses: ReadonlyMap<number, number>): Promise<void> => {
  if (uses.size === 0) return;
  await sql.query(
    `UPDATE api_keys k SET last_used_at = GREATEST(k.last_used_at, u.used_at)
     FROM unnest($1::int[], $2::timestamptz[]) AS u(id, used_at) WHERE k.id = u.id`,
    [[...uses.keys()], [...uses.values()].map((at) => new Date(at))],
  );
};
