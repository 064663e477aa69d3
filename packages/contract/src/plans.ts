import { z } from "zod";

export const PLAN_SLUGS = ["free", "starter", "pro", "enterprise"] as const;
export const PlanSlugSchema = z.enum(PLAN_SLUGS);
export type PlanSlug = z.infer<typeof PlanSlugSchema>;

export type PlanLimits = {
  slug: PlanSlug;
  name: string;
  rate_limit_per_minute: number;
  rate_limit_per_day: number;
  /** `null` = unmetered. */
  monthly_quota: number | null;
  max_batch_size: number;
  max_page_size: number;
  /**
   * Whether usage past the monthly quota is billed instead of refused with 402. Ours to decide
   * (spec, Limits rule 10): see docs/decisions.md.
   */
  overage: boolean;
};

/** The spec's plan table, as data. */
export const PLANS = {
  free: {
    slug: "free",
    name: "Free",
    rate_limit_per_minute: 30,
    rate_limit_per_day: 1_000,
    monthly_quota: 10_000,
    max_batch_size: 10,
    max_page_size: 25,
    overage: false,
  },
  starter: {
    slug: "starter",
    name: "Starter",
    rate_limit_per_minute: 120,
    rate_limit_per_day: 20_000,
    monthly_quota: 250_000,
    max_batch_size: 50,
    max_page_size: 50,
    overage: false,
  },
  pro: {
    slug: "pro",
    name: "Pro",
    rate_limit_per_minute: 600,
    rate_limit_per_day: 200_000,
    monthly_quota: 2_500_000,
    max_batch_size: 100,
    max_page_size: 100,
    overage: true,
  },
  enterprise: {
    slug: "enterprise",
    name: "Enterprise",
    rate_limit_per_minute: 3_000,
    rate_limit_per_day: 2_000_000,
    monthly_quota: null,
    max_batch_size: 250,
    max_page_size: 200,
    overage: false,
  },
} as const satisfies Record<PlanSlug, PlanLimits>;
