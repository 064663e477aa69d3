import type { FastifyReply, FastifyRequest } from "fastify";
import type { RouteEntry } from "../domain/auth/scope-table.js";
import { batchCost } from "../domain/limits/batch-cost.js";
import type { MeterDeps, RateLimitState } from "../domain/limits/meter.js";
import { meter, peekRateLimit, rateLimitHeaders } from "../domain/limits/meter.js";
import { authOf } from "./auth.js";
import { globalPlugin } from "./plugin.js";
import { appendHook, contractEntryOf } from "./route-hooks.js";

declare module "fastify" {
  interface FastifyRequest {
    /**
     * Charges `cost` units to the caller's organization (rate windows and monthly quota, all or
     * nothing); throws 429 or 402. Called for you (cost 1 at onRequest, or per element on batch
     * routes at preHandler); call it yourself only for extra units, then set the X-RateLimit-*
     * headers from `request.rateLimit` (rateLimitHeaders in domain/limits/meter.ts).
     */
    meter(cost: number): Promise<void>;
    /** The per-minute window state after the last charge: the X-RateLimit-* headers. */
    rateLimit: RateLimitState | null;
  }
}

/**
 * Metering, attached to contract routes at registration. Ordinary routes are charged one unit at
 * onRequest, right after authentication and before validation: a 422 is a request served and
 * counts (rate windows and monthly quota alike), which keeps the cost known before any work and
 * stops a client from hammering for free with bad parameters. Batch routes are charged at
 * preHandler, once the body is parsed, one unit per element. A plugin registered before this one
 * can answer in its own preHandler (an idempotent replay) and is then not charged again.
 */
export const limitsPlugin = globalPlugin<MeterDeps & { routes: Map<string, RouteEntry> }>(
  "limits",
  async (app, { routes, ...deps }) => {
    app.decorateRequest("rateLimit", null);
    app.decorateRequest("meter", async function (this: FastifyRequest, cost: number) {
      const auth = authOf(this);
      if (!Number.isInteger(cost) || cost < 1) throw new Error(`invalid meter cost ${cost}`);
      this.rateLimit = await meter(deps, auth.organization.id, auth.plan, cost);
    });
    // The headers of the charge; a refused charge throws, and its error carries its own headers.
    const charge = async (request: FastifyRequest, reply: FastifyReply, cost: number) => {
      await request.meter(cost);
      if (request.rateLimit) reply.headers(rateLimitHeaders(request.rateLimit));
    };
    // Every response about a known organization carries its window's headers: a 403 of a valid
    // key, and any answer whose charge did not set them. 401s carry none (docs/decisions.md).
    app.addHook("onSend", async (request, reply, payload) => {
      if (reply.hasHeader("x-ratelimit-limit")) return payload;
      const account = request.auth
        ? { organizationId: request.auth.organization.id, plan: request.auth.plan }
        : request.refusedAccount;
      if (!account) return payload;
      try {
        reply.headers(rateLimitHeaders(await peekRateLimit(deps, account.organizationId, account.plan)));
      } catch (error) {
        request.log.warn({ err: error }, "rate-limit headers unavailable");
      }
      return payload;
    });
    app.addHook("onRoute", (route) => {
      const entry = contractEntryOf(routes, route);
      if (!entry) return;
      // Free routes (`metadata.metered: false` in the contract: /me, so a customer stopped by a limit
      // can still see their usage) still need a valid key; their headers come from onSend above.
      if (!entry.metered) return;
      if (entry.batch) {
        appendHook(route, "preHandler", async (request: FastifyRequest, reply: FastifyReply) => {
          // An idempotent retry of a request whose units were charged and never answered.
          if (request.idempotency?.prepaid) return;
          await charge(request, reply, batchCost(request.body, authOf(request).plan.max_batch_size));
        });
      } else {
        appendHook(route, "onRequest", (request: FastifyRequest, reply: FastifyReply) =>
          charge(request, reply, 1),
        );
      }
    });
  },
);
