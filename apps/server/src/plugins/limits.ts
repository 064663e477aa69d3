import type { FastifyReply, FastifyRequest } from "fastify";
import type { RouteEntry } from "../domain/auth/scope-table.js";
import { authOf } from "../http-request.js";
import type { MeterDeps } from "../metering/meter.js";
import { meter, peekRateLimit, rateLimitHeaders } from "../metering/meter.js";
import { globalPlugin } from "./plugin.js";
import { appendHook, contractEntryOf } from "./route-hooks.js";

/** The organization a response is about: the authenticated one, or the one of a valid key refused with a 403. */
const accountOf = (request: FastifyRequest) =>
  request.auth
    ? { organizationId: request.auth.organization.id, plan: request.auth.plan }
    : request.refusedAccount;

/**
 * Metering of ordinary routes, attached to contract routes at registration: one unit at
 * onRequest, right after authentication and before validation: a 422 is a request served and
 * counts (rate windows and monthly quota alike), which keeps the cost known before any work and
 * stops a client from hammering for free with bad parameters. Batch routes are charged by their
 * admission (plugins/batch-admission.ts), one unit per element once the key is settled.
 */
export const limitsPlugin = globalPlugin<MeterDeps & { routes: Map<string, RouteEntry> }>(
  "limits",
  async (app, { routes, ...deps }) => {
    // The headers of the charge; a refused charge rejects, and its error carries its own headers.
    // A callback: a charge decided from memory (meter's plain value) goes on without a promise.
    const charge = (request: FastifyRequest, reply: FastifyReply, done: (error?: Error) => void) => {
      const auth = authOf(request);
      const charged = meter(deps, auth.organization.id, auth.plan, 1);
      if (!(charged instanceof Promise)) {
        reply.headers(rateLimitHeaders(charged));
        return done();
      }
      charged.then((state) => {
        reply.headers(rateLimitHeaders(state));
        done();
      }, done);
    };
    // Every response about a known organization carries its window's headers: a 403 of a valid
    // key, and any answer whose charge did not set them. 401s carry none (docs/decisions.md).
    // A callback, not an async function: nearly every response already has its headers, and an
    // async hook costs each of them a promise and a turn of the microtask queue.
    app.addHook("onSend", (request, reply, payload, done) => {
      const account = reply.hasHeader("x-ratelimit-limit") ? null : accountOf(request);
      if (!account) return done(null, payload);
      peekRateLimit(deps, account.organizationId, account.plan).then(
        (state) => {
          reply.headers(rateLimitHeaders(state));
          done(null, payload);
        },
        (error: unknown) => {
          request.log.warn({ err: error }, "rate-limit headers unavailable");
          done(null, payload);
        },
      );
    });
    app.addHook("onRoute", (route) => {
      const entry = contractEntryOf(routes, route);
      // Free routes (`metadata.metered: false` in the contract: /me, so a customer stopped by a limit
      // can still see their usage) still need a valid key; their headers come from onSend above.
      // Batch routes are metered by their admission.
      if (!entry?.metered || entry.batch) return;
      appendHook(route, "onRequest", charge);
    });
  },
);
