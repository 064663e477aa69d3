import type { FastifyReply, FastifyRequest } from "fastify";
import type { KeyLookup } from "../caches/key-cache.js";
import type { PresentedKeyReader } from "../caches/presented-keys.js";
import type { Clock } from "../clock.js";
import type { KeyRecord } from "../domain/auth/authorize.js";
import { authorize } from "../domain/auth/authorize.js";
import type { RouteEntry } from "../domain/auth/scope-table.js";
import { ApiError } from "../errors.js";
import { globalPlugin } from "./plugin.js";
import { appendHook, contractEntryOf } from "./route-hooks.js";

export type AuthPluginOptions = {
  /** Key records by hash (caches/key-cache.ts). */
  lookup: KeyLookup;
  /** The key an Authorization header presents (caches/presented-keys.ts). */
  readKey: PresentedKeyReader;
  clock: Clock;
  routes: Map<string, RouteEntry>;
};

/**
 * Every route of the contract gets an onRequest authentication hook when it is registered, with
 * its required scope from the contract's metadata (the one scope table). onRequest runs before the
 * body is read, so an anonymous request costs no parsing. Routes outside the contract (health,
 * OpenAPI, 404s) are public.
 */
export const authPlugin = globalPlugin<AuthPluginOptions>("auth", async (app, options) => {
  const { lookup, readKey, clock, routes } = options;
  app.decorateRequest("auth", null);
  app.decorateRequest("contractRoute", null);
  app.decorateRequest("refusedAccount", null);

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
