import { DEFAULT_LIMIT, type PlanLimits } from "@gmi/contract";
import type { FastifyRequest } from "fastify";
import type { AuthContext } from "./domain/auth/authorize.js";
import type { RouteEntry } from "./domain/auth/scope-table.js";

/**
 * What the plugins leave on a request for the plugins after them and for the routes: the typed
 * context both layers read, kept here so that neither imports the other.
 */
declare module "fastify" {
  interface FastifyRequest {
    /** The authenticated key, its organization and plan; null on routes outside the contract. */
    auth: AuthContext | null;
    /** A valid key refused with a 403 (inactive account, missing scope): whose plan it is. */
    refusedAccount: { organizationId: number; plan: PlanLimits } | null;
    /** The contract route being served (from the scope table), null outside the contract. */
    contractRoute: RouteEntry | null;
  }
}

/** For handlers of authenticated routes: the auth context, which the auth plugin guarantees is there. */
export const authOf = (request: FastifyRequest): AuthContext => {
  if (!request.auth) throw new Error("route served without authentication");
  return request.auth;
};

/** Digits only, as many as the contract's largest `limit` has: anything else is left to the cap. */
const PLAIN_LIMIT = /^[0-9]{1,10}$/;

/**
 * What an answer's page size depends on, from the URL as sent: `limit` (DEFAULT_LIMIT when absent)
 * capped at the plan's max_page_size, as `resolvePageRequest` computes it. The plans share every
 * answer whose page size is the same: for a URL without `limit`, all plans whose cap is at least
 * DEFAULT_LIMIT (and routes without pages, where the cap changes nothing). Read without parsing the
 * query (one search; the early answers run before validation): a query the contract's parser could
 * read otherwise (an escaped name, `limit` twice, a value that is not plain digits) is keyed by
 * the cap itself, `c<cap>`: never shared between plans, as before.
 */
export const pageSizeKey = (url: string, pageCap: number): string => {
  const query = url.indexOf("?");
  if (query < 0) return String(Math.max(1, Math.min(DEFAULT_LIMIT, pageCap)));
  if (url.includes("%", query)) return `c${pageCap}`;
  let found = -1;
  for (let at = url.indexOf("limit=", query); at >= 0; at = url.indexOf("limit=", at + 6)) {
    const before = url.charCodeAt(at - 1);
    // `?` or `&` before it: the name `limit`, not the end of another name.
    if (before !== 63 && before !== 38) continue;
    if (found >= 0) return `c${pageCap}`;
    found = at + 6;
  }
  if (found < 0) return String(Math.max(1, Math.min(DEFAULT_LIMIT, pageCap)));
  const end = url.indexOf("&", found);
  const value = url.slice(found, end < 0 ? undefined : end);
  if (!PLAIN_LIMIT.test(value)) return `c${pageCap}`;
  return String(Math.max(1, Math.min(Number(value), pageCap)));
};

/**
 * The key of a read's whole answer (caches/response-cache.ts): everything it depends on besides
 * the data, namely the page size it serves (`pageSizeKey`: not the plan's cap, so plans share
 * answers), the origin its links point to and the URL (path and query). A space before the URL,
 * which holds none: a Host header holding a path cannot run into it.
 */
export const answerKeyOf = (request: FastifyRequest): string =>
  `${pageSizeKey(request.url, authOf(request).plan.max_page_size)} ${request.protocol}://${request.host} ${request.url}`;
