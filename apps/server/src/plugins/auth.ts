import type { PlanLimits } from "@gmi/contract";
import type { FastifyReply, FastifyRequest } from "fastify";
import type { Clock } from "../clock.js";
import { presentedKeyReader } from "../domain/auth/api-key.js";
import type { AuthContext, KeyRecord } from "../domain/auth/authorize.js";
import { authorize } from "../domain/auth/authorize.js";
import type { KeyLookup } from "../domain/auth/key-cache.js";
import type { RouteEntry } from "../domain/auth/scope-table.js";
import { ApiError } from "../errors.js";
import { globalPlugin } from "./plugin.js";
import { appendHook, contractEntryOf } from "./route-hooks.js";

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

export type AuthPluginOptions = { lookup: KeyLookup; clock: Clock; routes: Map<string, RouteEntry> };

/** Authorization headers whose keys' hashes are kept (domain/auth/api-key.ts): the key cache's size. */
const KEYS_KEPT = 10_000;

/**
 * Every route of the contract gets an onRequest authentication hook when it is registered, with
 * its required scope from the contract's metadata (the one scope table). onRequest runs before the
 * body is read, so an anonymous request costs no parsing. Routes outside the contract (health,
 * OpenAPI, 404s) are public.
 */
export const authPlugin = globalPlugin<AuthPluginOptions>("auth", async (app, { lookup, clock, routes }) => {
  app.decorateRequest("auth", null);
  app.decorateRequest("contractRoute", null);
  app.decorateRequest("refusedAccount", null);
  const readKey = presentedKeyReader(KEYS_KEPT);

  /** Sets the request's auth context, or throws the 401 or 403. */
  const admit = (request: FastifyRequest, entry: RouteEntry, record: KeyRecord | null) => {
    try {
      request.auth = authorize(record, entry.scope, clock.now());
    } catch (error) {
      // A 403 is about a known key: its organization's rate-limit headers are sent with it (limits.ts).
      if (record && error instanceof ApiError && error.status === 403) {
        request.refusedAccount = { organizationId: record.organization.id, plan: record.plan };
      }
      throw error;
    }
  };

  app.addHook("onRoute", (route) => {
    const entry = contractEntryOf(routes, route);
    if (!entry) return;
    // A callback hook, not an async one: a cached key is decided at once, without the promise and
    // the turn of the microtask queue an async hook costs on every request. What it throws, Fastify
    // handles as it does a rejected async hook.
    const authenticate = (request: FastifyRequest, _reply: FastifyReply, done: (error?: Error) => void) => {
      request.contractRoute = entry;
      const presented = readKey(request.headers.authorization);
      if (presented === "no token") {
        throw new ApiError("unauthorized", "Send the API key as Authorization: Bearer <key>");
      }
      if (presented === "malformed") {
        admit(request, entry, null);
        return done();
      }
      const { hash } = presented;
      const cached = lookup.cached?.(hash);
      if (cached) {
        admit(request, entry, cached.record);
        return done();
      }
      lookup(hash)
        .then((record) => admit(request, entry, record))
        .then(() => done())
        .catch(done);
    };
    appendHook(route, "onRequest", authenticate);
  });
});

/** For handlers of authenticated routes: the auth context, which the plugin guarantees is there. */
export const authOf = (request: FastifyRequest): AuthContext => {
  if (!request.auth) throw new Error("route served without authentication");
  return request.auth;
};
