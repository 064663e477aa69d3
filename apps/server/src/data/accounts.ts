import type { PlanLimits, PlanSlug } from "@gmi/contract";
import { PLANS } from "@gmi/contract";
import type { Sql } from "./sql.js";

export type AccountStatus = "active" | "suspended";
export type Organization = {
  id: number;
  name: string;
  plan: PlanSlug;
  status: AccountStatus;
  created_at: Date;
};
export type ApiClient = {
  id: number;
  organization_id: number;
  name: string;
  status: AccountStatus;
  created_at: Date;
};

/**
 * Upserts the plan table from the contract's PLANS, so the database never disagrees with the
 * published limits. Run by `gmi migrate` and at every start.
 */
export const ensurePlans = async (sql: Sql): Promise<void> => {
  const plans: PlanLimits[] = Object.values(PLANS);
  await sql.query(
    `INSERT INTO plans (slug, name, rate_limit_per_minute, rate_limit_per_day, monthly_quota, max_batch_size,
       max_page_size, overage)
     SELECT * FROM unnest($1::text[], $2::text[], $3::int[], $4::int[], $5::int[], $6::int[], $7::int[], $8::bool[])
     ON CONFLICT (slug) DO UPDATE SET name = EXCLUDED.name,
       rate_limit_per_minute = EXCLUDED.rate_limit_per_minute, rate_limit_per_day = EXCLUDED.rate_limit_per_day,
       monthly_quota = EXCLUDED.monthly_quota, max_batch_size = EXCLUDED.max_batch_size,
       max_page_size = EXCLUDED.max_page_size, overage = EXCLUDED.overage`,
    [
      plans.map((p) => p.slug),
      plans.map((p) => p.name),
      plans.map((p) => p.rate_limit_per_minute),
      plans.map((p) => p.rate_limit_per_day),
      plans.map((p) => p.monthly_quota),
      plans.map((p) => p.max_batch_size),
      plans.map((p) => p.max_page_size),
      plans.map((p) => p.overage),
    ],
  );
};

export const listPlans = async (sql: Sql): Promise<PlanLimits[]> => {
  const result = await sql.query<PlanLimits>(
    `SELECT slug, name, rate_limit_per_minute, rate_limit_per_day, monthly_quota, max_batch_size, max_page_size, overage
     FROM plans ORDER BY rate_limit_per_minute, slug`,
  );
  return result.rows;
};

const ORG_COLUMNS = "id, name, plan_slug AS plan, status, created_at";
const CLIENT_COLUMNS = "id, organization_id, name, status, created_at";

export const createOrganization = async (
  sql: Sql,
  input: { name: string; plan: PlanSlug },
): Promise<Organization> => {
  const result = await sql.query<Organization>(
    `INSERT INTO organizations (name, plan_slug) VALUES ($1, $2) RETURNING ${ORG_COLUMNS}`,
    [input.name, input.plan],
  );
  const row = result.rows[0];
  if (!row) throw new Error("organization insert returned nothing");
  return row;
};

export const getOrganization = async (sql: Sql, id: number): Promise<Organization | null> =>
  (await sql.query<Organization>(`SELECT ${ORG_COLUMNS} FROM organizations WHERE id = $1`, [id])).rows[0] ??
  null;

export const countOrganizations = async (sql: Sql): Promise<number> =>
  (await sql.query<{ n: number }>("SELECT count(*)::int AS n FROM organizations")).rows[0]?.n ?? 0;

export type OrganizationSummary = Organization & { clients: number; active_keys: number };

/** Every organization, oldest first, with its API clients and its usable (unrevoked, unexpired) keys. */
export const listOrganizations = async (sql: Sql, now: Date): Promise<OrganizationSummary[]> =>
  (
    await sql.query<OrganizationSummary>(
      `SELECT o.id, o.name, o.plan_slug AS plan, o.status, o.created_at,
         (SELECT count(*)::int FROM api_clients c WHERE c.organization_id = o.id) AS clients,
         (SELECT count(*)::int FROM api_keys k WHERE k.organization_id = o.id AND k.revoked_at IS NULL
            AND (k.expires_at IS NULL OR k.expires_at > $1)) AS active_keys
       FROM organizations o ORDER BY o.id`,
      [now],
    )
  ).rows;

export const setOrganizationStatus = async (
  sql: Sql,
  id: number,
  status: AccountStatus,
): Promise<Organization | null> =>
  (
    await sql.query<Organization>(
      `UPDATE organizations SET status = $2 WHERE id = $1 RETURNING ${ORG_COLUMNS}`,
      [id, status],
    )
  ).rows[0] ?? null;

/** Null when the organization does not exist. */
export const createClient = async (
  sql: Sql,
  input: { organizationId: number; name: string },
): Promise<ApiClient | null> =>
  (
    await sql.query<ApiClient>(
      `INSERT INTO api_clients (organization_id, name) SELECT id, $2 FROM organizations WHERE id = $1
       RETURNING ${CLIENT_COLUMNS}`,
      [input.organizationId, input.name],
    )
  ).rows[0] ?? null;

export const getClient = async (sql: Sql, id: number): Promise<ApiClient | null> =>
  (await sql.query<ApiClient>(`SELECT ${CLIENT_COLUMNS} FROM api_clients WHERE id = $1`, [id])).rows[0] ??
  null;

export const setClientStatus = async (
  sql: Sql,
  id: number,
  status: AccountStatus,
): Promise<ApiClient | null> =>
  (
    await sql.query<ApiClient>(
      `UPDATE api_clients SET status = $2 WHERE id = $1 RETURNING ${CLIENT_COLUMNS}`,
      [id, status],
    )
  ).rows[0] ?? null;
