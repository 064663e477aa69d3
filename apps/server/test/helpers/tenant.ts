import type { PlanSlug, Scope } from "@gmi/contract";
import { SCOPES } from "@gmi/contract";
import {
  createClient,
  createOrganization,
  setClientStatus,
  setOrganizationStatus,
} from "../../src/data/accounts.js";
import { issueApiKey } from "../../src/data/keys.js";
import type { Sql } from "../../src/data/sql.js";

export type Tenant = { organizationId: number; clientId: number | null; keyId: number; key: string };

let counter = 0;

/** A fresh organization with one key: every test works in its own tenant. */
export const createTenant = async (
  sql: Sql,
  options: { plan?: PlanSlug | string; scopes?: Scope[]; withClient?: boolean; expiresAt?: Date | null } = {},
): Promise<Tenant> => {
  counter += 1;
  const org = await createOrganization(sql, {
    name: `tenant-${process.pid}-${counter}`,
    plan: (options.plan ?? "enterprise") as PlanSlug,
  });
  const client = options.withClient
    ? await createClient(sql, { organizationId: org.id, name: "client" })
    : null;
  const issued = await issueApiKey(sql, {
    organizationId: org.id,
    clientId: client?.id ?? null,
    name: "test",
    scopes: options.scopes ?? [...SCOPES],
    expiresAt: options.expiresAt ?? null,
  });
  return { organizationId: org.id, clientId: client?.id ?? null, keyId: issued.id, key: issued.key };
};

export const suspendOrganization = (sql: Sql, id: number) => setOrganizationStatus(sql, id, "suspended");
export const suspendClient = (sql: Sql, id: number) => setClientStatus(sql, id, "suspended");

/**
 * A plan row of the test's own (tiny limits) so a window or the quota is reached in a handful of
 * requests. Its slug is not one of the published plans: never call /me with it.
 */
export const createTestPlan = async (
  sql: Sql,
  limits: {
    perMinute: number;
    perDay: number;
    quota: number | null;
    overage?: boolean;
    maxPageSize?: number;
  },
): Promise<string> => {
  counter += 1;
  const slug = `test-${process.pid}-${counter}`;
  await sql.query(
    `INSERT INTO plans (slug, name, rate_limit_per_minute, rate_limit_per_day, monthly_quota, max_batch_size,
       max_page_size, overage) VALUES ($1, $1, $2, $3, $4, 10, $5, $6)`,
    [slug, limits.perMinute, limits.perDay, limits.quota, limits.maxPageSize ?? 25, limits.overage ?? false],
  );
  return slug;
};
