import { contract } from "@gmi/contract";
import { initServer } from "@ts-rest/fastify";
import { billingMonth, monthResetsAt, secondsUntil } from "../domain/limits/windows.js";
import { authOf } from "../plugins/auth.js";
import type { RouteDeps } from "./context.js";

const s = initServer();

export const accountRouter = (deps: RouteDeps) =>
  s.router(contract.account, {
    me: async ({ request }) => {
      const { organization, plan, keyName, lastFour, scopes } = authOf(request);
      const now = deps.clock.now();
      const used = await deps.usage.used(organization.id, billingMonth(now));
      return {
        status: 200,
        body: {
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
            usage: {
              month: { used, quota: plan.monthly_quota, resets_in: secondsUntil(monthResetsAt(now), now) },
            },
          },
          meta: {},
        },
      };
    },
  });
