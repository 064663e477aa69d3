import type { FastifyReply, FastifyRequest } from "fastify";
import type { KeyLookup } from "../caches/key-cache.js";
import type { PresentedKeyReader } from "../caches/presented-keys.js";
import type { Clock } from "../clock.js";
import type { KeyUseRecorder } from "../data/key-use.js";
import type { KeyRecord } from "../domain/auth/authorize.js";
import { authorize } from "../domain/auth/authorize.js";
import type { RouteEntry } from "../domain/auth/scope-table.js";
import { clientOf } from "../domain/limits/auth-failures.js";
import { ApiError } from "../errors.js";
import type { AuthFailureLimiter } from "../metering/auth-failures.js";
import { globalPlugin } from "./plugin.js";
import { appendHook, contractEntryOf } from "./route-hooks.js";

export type AuthPluginOptions = {
  /** Key records by hash (caches/key-cache.ts). */
  lookup: KeyLookup;
  /** The key an Authorization header presents (caches/presented-keys.ts). */
  readKey: PresentedKeyReader;
  clock: Clock;
  routes: Map<string, RouteEntry>;
  /** The failed-authentication limit per client (metering/auth-failures.ts); null: none. */
  failures: AuthFailureLimiter | null;
  /** Told of each key admitted, for its `last_used_at` (data/key-use.ts). */
  keyUse: Pick<KeyUseRecorder, "note">;
};

type Done = (error?: Error) => void;

/** The client a failed authentication counts against; a socket already gone has no address. */
const clientOfRequest = (request: FastifyRequest) => clientOf(request.ip || "unknown");

/**
 * Every route of the contract gets an onRequest authentication hook when it is registered, with
 * its required scope from the contract's metadata (the one scope table). onRequest runs before the
 * body is read, so an anonymous request costs no parsing. Routes outside the contract (health,
 * OpenAPI, 404s) are public.
 *
 * Failed authentications are limited per client (`failures`): a 401 counts against the client's
 * address (request.ip: the socket's peer, or X-Forwarded-For behind a TRUST_PROXY), and a client
 * past the limit is refused with 429 before any key lookup, unless its key is one this replica
 * knows: a customer sharing an address (a NAT) with a client that keeps failing is still served
 * (docs/security.md, "Abuse limits").
 */
export const authPlugin = globalPlugin<AuthPluginOptions>("auth", async (app, options) => {
  const { lookup, readKey, clock, routes, failures, keyUse } = options;
  app.decorateRequest("auth", null);
  app.decorateRequest("contractRoute", null);
  app.decorateRequest("refusedAccount", null);

  /** Sets the request's auth context, or throws the 401 or 403. */
  const admit = (request: FastifyRequest, entry: RouteEntry, record: KeyRecord | null) => {
    const now = clock.now();
    try {
      request.auth = authorize(record, entry.scope, now);
      keyUse.note(request.auth.keyId, now);
    } catch (error) {
      // A 403 is about a known key: its organization's rate-limit headers are sent with it (limits.ts).
      if (record && error instanceof ApiError && error.status === 403) {
        request.refusedAccount = { organizationId: record.organization.id, plan: record.plan };
      }
      throw error;
    }
  };

  /** Ends the hook with `error`; a 401 is first counted against the client, and past its limit is a 429. */
  const refuse = (request: FastifyRequest, error: unknown, done: Done) => {
    const refusal = error instanceof Error ? error : new Error(String(error));
    if (!failures || !(error instanceof ApiError) || error.code !== "unauthorized") return done(refusal);
    failures.record(clientOfRequest(request)).then(
      (limited) => done(limited ?? refusal),
      () => done(refusal),
    );
  };

  const admitOrRefuse = (
    request: FastifyRequest,
    entry: RouteEntry,
    record: KeyRecord | null,
    done: Done,
  ) => {
    try {
      admit(request, entry, record);
    } catch (error) {
      return refuse(request, error, done);
    }
    done();
  };

  app.addHook("onRoute", (route) => {
    const entry = contractEntryOf(routes, route);
    if (!entry) return;
    // A callback hook, not an async one: a cached key is decided at once, without the promise and
    // the turn of the microtask queue an async hook costs on every request.
    const authenticate = (request: FastifyRequest, _reply: FastifyReply, done: Done) => {
      request.contractRoute = entry;
      const header = request.headers.authorization;
      const presented = readKey(header);
      const hash = typeof presented === "object" ? presented.hash : null;
      const cached = hash === null ? undefined : lookup.cached?.(hash);
      // A key this replica holds fresh is decided first: its client's failures do not concern it.
      if (cached?.record) {
        if (typeof presented === "object" && !presented.kept && header) readKey.keep(header, presented.hash);
        return admitOrRefuse(request, entry, cached.record, done);
      }
      // Before any lookup: a client past the limit, unless its key is one this replica has read.
      const blocked = failures?.refusalOf(clientOfRequest(request));
      if (blocked && !(hash !== null && lookup.known?.(hash))) return done(blocked);
      if (presented === "no token") {
        return refuse(
          request,
          new ApiError("unauthorized", "Send the API key as Authorization: Bearer <key>"),
          done,
        );
      }
      if (hash === null || cached) return admitOrRefuse(request, entry, null, done);
      lookup(hash).then(
        (record) => {
          // Only the header of a key that exists is kept (caches/presented-keys.ts).
          if (record && header) readKey.keep(header, hash);
          admitOrRefuse(request, entry, record, done);
        },
        (error: unknown) => done(error instanceof Error ? error : new Error(String(error))),
      );
    };
    appendHook(route, "onRequest", authenticate);
  });
});
