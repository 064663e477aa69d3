import { ApiError } from "../errors.js";
import type { RateWindow } from "./windows.js";
import { monthResetsAt, secondsUntil } from "./windows.js";

/**
 * Why a charge larger than one unit was refused though some units are left, in words that agree
 * with the figures sent beside it: "this request costs 9 units and 8 are left".
 */
const costAndLeft = (cost: number, left: number): string | null =>
  cost > 1 && left > 0 ? `this request costs ${cost} units and ${left} are left` : null;

/**
 * 429 of the window that refused a charge of `cost` (`count`: that window's count, the charge not
 * in it): `details` and `Retry-After` are that window's; `headers` are the X-RateLimit-* of the
 * minute window, whichever window refused (spec, Limits rule 2).
 */
export const rateLimitRefusal = (
  window: RateWindow,
  count: number,
  cost: number,
  headers: Record<string, number>,
  now: number,
) => {
  const why = costAndLeft(cost, window.limit - count);
  const limit = `Rate limit of ${window.limit} requests per ${window.name}`;
  return new ApiError(
    "rate_limit_exceeded",
    why ? `${limit}: ${why}` : `${limit} exceeded`,
    { window: window.name, limit: window.limit },
    { ...headers, "retry-after": secondsUntil(window.resetsAt, now) },
  );
};

/**
 * 402 of a hard-capped monthly quota that a charge of `cost` would pass (`used`: the count without
 * it), with `Retry-After` until the month resets; `headers` are the minute window's, refunded.
 */
export const quotaRefusal = (
  quota: number,
  used: number,
  cost: number,
  headers: Record<string, number>,
  now: number,
) => {
  const resetsIn = secondsUntil(monthResetsAt(now), now);
  const why = costAndLeft(cost, quota - used);
  const resets = "it resets at the start of the next UTC month";
  return new ApiError(
    "quota_exceeded",
    why
      ? `Monthly quota of ${quota} requests: ${why}; ${resets}`
      : `Monthly quota of ${quota} requests used up; ${resets}`,
    { quota, used, resets_in: resetsIn },
    { ...headers, "retry-after": resetsIn },
  );
};

/**
 * 429 of a client past the failed-authentication limit (metering/auth-failures.ts): `details` in
 * the interface's shape for a 429 (`window`, `limit`: here the client's 401s per minute), and
 * `Retry-After` until the minute ends. No X-RateLimit-* headers: they describe an organization's
 * plan, and this client has shown none.
 */
export const authFailureRefusal = (perMinute: number, until: number, now: number) =>
  new ApiError(
    "rate_limit_exceeded",
    `Too many failed authentications from this address (more than ${perMinute} in a minute); check the API key`,
    { window: "minute", limit: perMinute },
    { "retry-after": secondsUntil(until, now) },
  );
