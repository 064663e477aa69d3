import type { contract } from "@gmi/contract";
import { emptyMeta } from "./meta.js";
import type { Read } from "./read.js";

/** `GET /me`: the key, its organization and plan, and its usage (read live, never cached). */
export const me: Read<typeof contract.account.me> = async (reads, _request, caller) => {
  const { organization, plan, keyName, lastFour, scopes } = caller.auth;
  const usage = await reads.usage(organization.id, plan);
  return {
    data: {
      // The auth layer only lets active accounts through.
      organization: { id: organization.id, name: organization.name, status: "active" },
      plan: {
        slug: plan.slug,
        name: plan.name,
        rate_limit_per_minute: plan.rate_limit_per_minute,
        rate_limit_per_day: plan.rate_limit_per_day,
        monthly_quota: plan.monthly_quota,
        max_batch_size: plan.max_batch_size,
        max_page_size: plan.max_page_size,
      },
      api_key: { name: keyName, last_four: lastFour, scopes },
      usage,
    },
    meta: emptyMeta(),
  };
};
