import type { PlanLimits } from "@gmi/contract";
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

/**
 * The key of a read's whole answer (caches/response-cache.ts): everything it depends on besides
 * the data, namely the caller's page-size cap, the origin its links point to and the URL (path and
 * query). A space before the URL, which holds none: a Host header holding a path cannot run into it.
 */
export const answerKeyOf = (request: FastifyRequest): string =>
  `${authOf(request).plan.max_page_size} ${request.protocol}://${request.host} ${request.url}`;
