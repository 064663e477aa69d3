import type { PlanSlug } from "@gmi/contract";
import { SCOPES } from "@gmi/contract";
import { createOrganization } from "../src/data/accounts.js";
import { issueApiKey } from "../src/data/keys.js";
import type { Sql } from "../src/data/sql.js";

/**
 * A key with every scope on a plan of the bench's own, `bench`: windows too large to reach, so every
 * request is checked and none refused (Enterprise's 3,000/min would be spent in the first second).
 * `monthlyQuota`: null for unmetered, a number for a hard cap that is never reached.
 */
export const benchKey = async (sql: Sql, monthlyQuota: number | null): Promise<string> => {
  await sql.query(
    `INSERT INTO plans (slug, name, rate_limit_per_minute, rate_limit_per_day, monthly_quota, max_batch_size,
       max_page_size, overage) VALUES ('bench', 'Bench', 1000000000, 1000000000, $1, 250, 200, false)`,
    [monthlyQuota],
  );
  const org = await createOrganization(sql, { name: "bench", plan: "bench" as PlanSlug });
  const { key } = await issueApiKey(sql, {
    organizationId: org.id,
    clientId: null,
    name: "bench",
    scopes: [...SCOPES],
    expiresAt: null,
  });
  return key;
};
