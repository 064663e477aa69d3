import { PLANS, type PlanSlug, type Scope } from "@gmi/contract";
import type { RouteName } from "../types.js";
import type { MockState } from "./state.js";

interface Targeted {
  /** How many requests get the fault (default 1). */
  times?: number | undefined;
  /** Only these routes (default: any). */
  routes?: RouteName[] | undefined;
}

/** Ways to make a test face the API's failures, each as the real server would answer them. */
export const scenarios = (state: MockState) => ({
  /** `429 rate_limit_exceeded` with `Retry-After` (seconds) for the next `times` requests. */
  rateLimited(options: Targeted & { retryAfter?: number; window?: "minute" | "day" } = {}) {
    const window = options.window ?? "minute";
    const plan = PLANS[state.plan];
    state.faults.push({
      kind: "error",
      status: 429,
      code: "rate_limit_exceeded",
      retryAfter: options.retryAfter ?? 1,
      details: { window, limit: window === "minute" ? plan.rate_limit_per_minute : plan.rate_limit_per_day },
      times: options.times ?? 1,
      routes: options.routes,
    });
  },
  /** `402 quota_exceeded` on every request until `reset()`; `Retry-After` is the seconds to the reset. */
  quotaExceeded(options: { resetsIn?: number } = {}) {
    state.quotaResetsIn = options.resetsIn ?? 86_400;
  },
  /** `409 idempotency_conflict` for the next `times` POSTs, as if the same key were still in flight. */
  idempotencyConflict(options: Targeted & { retryAfter?: number } = {}) {
    state.faults.push({
      kind: "error",
      status: 409,
      code: "idempotency_conflict",
      retryAfter: options.retryAfter ?? 1,
      times: options.times ?? 1,
      routes: options.routes,
      method: "POST",
    });
  },
  /** A burst of 5xx answers (default three `503 service_unavailable`). */
  serverErrors(options: Targeted & { status?: 500 | 502 | 503 | 504 } = {}) {
    const status = options.status ?? 503;
    state.faults.push({
      kind: "error",
      status,
      code: status === 503 ? "service_unavailable" : "server_error",
      times: options.times ?? 3,
      routes: options.routes,
    });
  },
  /** The connection fails without an answer (fetch rejects). */
  networkError(options: Targeted = {}) {
    state.faults.push({ kind: "network", times: options.times ?? 1, routes: options.routes });
  },
  /** Answers arrive only after `ms` (for time-out tests). */
  slow(ms: number, options: Targeted = {}) {
    state.faults.push({ kind: "delay", delayMs: ms, times: options.times ?? 1, routes: options.routes });
  },
  /** `401 unauthorized` for every request: the key expired (or, with `revoked`, was revoked). */
  expiredKey(options: { revoked?: boolean } = {}) {
    if (options.revoked) state.revokedKey = true;
    else state.expiredKey = true;
  },
  /** `403 insufficient_scope` (`details.required_scope`) on every route needing `scope`. */
  missingScope(scope: Scope) {
    state.scopes.delete(scope);
  },
  /** `403 account_inactive` for every request: the organization (or the key's API client) is suspended. */
  accountInactive(options: { subject?: "organization" | "api_client" } = {}) {
    state.inactive = true;
    state.inactiveSubject = options.subject ?? "organization";
  },
  /** Batch items of these game ids fail with `status` (429 or 5xx: retryable) the next `times` times. */
  failItems(ids: number[], options: { status?: number; times?: number } = {}) {
    for (const id of ids)
      state.itemFaults.set(id, { status: options.status ?? 503, times: options.times ?? 1 });
  },
  /** Switch the key's plan (page cap, batch size, rate limits of that plan). */
  plan(slug: PlanSlug) {
    state.plan = slug;
  },
});

export type Scenarios = ReturnType<typeof scenarios>;
