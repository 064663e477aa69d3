import { HEADERS, IdempotencyKeySchema, listRoutes } from "@gmi/contract";
import type { FastifyReply, FastifyRequest } from "fastify";
import type { ZodTypeAny } from "zod";
import type { Clock } from "../clock.js";
import type { Claim } from "../data/idempotency.js";
import {
  claimKey,
  markPaid,
  purgeExpired,
  releaseClaim,
  renewClaim,
  storeResponse,
} from "../data/idempotency.js";
import type { Sql } from "../data/sql.js";
import { type RouteEntry, routeKey } from "../domain/auth/scope-table.js";
import { decide } from "../domain/idempotency/decide.js";
import { fingerprint } from "../domain/idempotency/fingerprint.js";
import {
  HEARTBEAT_MS,
  MAX_HOLD_MS,
  outcomeOf,
  PURGE_INTERVAL_MS,
  RETENTION_MS,
  storedHeadersOf,
} from "../domain/idempotency/policy.js";
import { storedMemo } from "../domain/idempotency/stored-memo.js";
import { meter, rateLimitHeaders } from "../domain/limits/meter.js";
import type { LimiterStore } from "../domain/limits/store.js";
import type { UsageStore } from "../domain/limits/usage.js";
import { ApiError, validationFailed } from "../errors.js";
import { authOf } from "./auth.js";
import { globalPlugin } from "./plugin.js";
import { appendHook, contractEntryOf } from "./route-hooks.js";

/** A key this request holds until its answer is stored or the key released. */
type HeldKey = {
  claim: Claim;
  heartbeat: NodeJS.Timeout;
  settled: boolean;
  /** The same request was charged by an earlier holder that never stored an answer: not again. */
  prepaid: boolean;
  /** Records that this request's units are charged (the batch handler calls it before any work). */
  markPaid(): Promise<void>;
  /** The request's fingerprint, kept with its stored answer. */
  fingerprint: string;
};

declare module "fastify" {
  interface FastifyRequest {
    idempotency: HeldKey | null;
  }
}

export type IdempotencyPluginOptions = {
  sql: Sql;
  clock: Clock;
  limiter: LimiterStore;
  routes: Map<string, RouteEntry>;
  /** Defaults to PURGE_INTERVAL_MS; 0 turns the timer off (tests purge by hand). */
  purgeIntervalMs?: number;
};

/** Answers that do no work are charged to the rate windows only, never to the monthly quota. */
const NO_QUOTA: UsageStore = {
  consume: async () => ({ admitted: true, used: null }),
  used: async () => 0,
  flush: async () => {},
  close: async () => {},
};

const keyOf = (raw: string | string[]): string => {
  const parsed = IdempotencyKeySchema.safeParse(Array.isArray(raw) ? raw.join(", ") : raw);
  if (parsed.success) return parsed.data;
  throw validationFailed("header", HEADERS.idempotencyKey, parsed.error.issues[0]?.message ?? "is invalid");
};

/**
 * The Idempotency-Key of the batch routes (spec, "States and transitions"; docs/idempotency.md).
 * Registered after auth and before limits, whose per-element charge it precedes on each batch
 * route: auth (onRequest) → key check → claim the key, or answer from its record (this preHandler)
 * → metering of one unit per element (limits' preHandler, which a replay, 409 or 422 never reaches)
 * → handler → the answer stored or the key released (onSend, before the answer leaves, so a client
 * that saw an answer always gets its replay).
 */
export const idempotencyPlugin = globalPlugin<IdempotencyPluginOptions>(
  "idempotency",
  async (app, options) => {
    const { sql, clock } = options;
    const querySchemas = new Map(
      listRoutes().flatMap(({ route }) =>
        route.query ? [[routeKey(route.method, route.path), route.query as ZodTypeAny] as const] : [],
      ),
    );
    app.decorateRequest("idempotency", null);
    const stored = storedMemo();

    /** Answers that do no work: one unit of the rate windows, nothing of the monthly quota. */
    const chargeRateWindows = async (request: FastifyRequest, reply: FastifyReply) => {
      const auth = authOf(request);
      request.rateLimit = await meter(
        { limiter: options.limiter, usage: NO_QUOTA, clock },
        auth.organization.id,
        auth.plan,
        1,
      );
      reply.headers(rateLimitHeaders(request.rateLimit));
    };

    const hold = (
      request: FastifyRequest,
      claim: Claim,
      paid: { fingerprint: string; prepaid: boolean },
    ): HeldKey => {
      let beats = 0;
      const heartbeat = setInterval(() => {
        if (++beats * HEARTBEAT_MS > MAX_HOLD_MS) return clearInterval(heartbeat);
        renewClaim(sql, claim, clock.now()).then(
          (held) => held || request.log.warn("idempotency key taken over while in flight"),
          (error: unknown) => request.log.error({ err: error }, "idempotency lease renewal failed"),
        );
      }, HEARTBEAT_MS);
      heartbeat.unref();
      return {
        claim,
        heartbeat,
        settled: false,
        prepaid: paid.prepaid,
        fingerprint: paid.fingerprint,
        markPaid: () => (paid.prepaid ? Promise.resolve() : markPaid(sql, claim, paid.fingerprint)),
      };
    };

    const settle = (held: HeldKey) => {
      held.settled = true;
      clearInterval(held.heartbeat);
    };

    const guard = async (request: FastifyRequest, reply: FastifyReply) => {
      const raw = request.headers[HEADERS.idempotencyKey];
      if (raw === undefined) return;
      let key: string;
      try {
        key = keyOf(raw);
      } catch (error) {
        // A refused request is a request served (plugins/limits.ts): one unit, like a bad body.
        await request.meter(1);
        if (request.rateLimit) reply.headers(rateLimitHeaders(request.rateLimit));
        throw error;
      }
      const queryAt = request.url.indexOf("?");
      const path = request.routeOptions.url ?? request.url.slice(0, queryAt === -1 ? undefined : queryAt);
      // The query as the route reads it, defaults filled (`?period=7d` = no period); raw if invalid.
      const parsed = querySchemas.get(routeKey(request.method, path))?.safeParse(request.query);
      const print = fingerprint({
        method: request.method,
        path,
        query: parsed?.success
          ? (parsed.data as Record<string, unknown>)
          : queryAt === -1
            ? ""
            : request.url.slice(queryAt + 1),
        body: request.body,
      });
      const organizationId = authOf(request).organization.id;
      // An answer this server stored: replayed (or refused as a reuse) without a round trip.
      const kept = stored.get(organizationId, key, clock.now());
      const result = kept
        ? decide(kept, print, clock.now())
        : await claimKey(sql, { organizationId, key, fingerprint: print, now: clock.now() });
      if (result.kind === "claimed") {
        if (result.takenOver) request.log.warn({ idempotency_key: key }, "idempotency key reclaimed");
        request.idempotency = hold(request, result.claim, { fingerprint: print, prepaid: result.prepaid });
        // Its units were paid by the holder that died or failed: like a replay, windows only.
        if (result.prepaid) await chargeRateWindows(request, reply);
        return;
      }
      await chargeRateWindows(request, reply);
      if (result.kind === "replay") return replay(reply, result.response);
      if (result.kind === "process") throw new Error("a stored record decided to process");
      if (result.kind === "conflict") {
        throw new ApiError(
          "idempotency_conflict",
          "A request with this Idempotency-Key is still being processed; retry in a few seconds",
          { idempotency_key: key, retry_after: result.retryAfter },
          { [HEADERS.retryAfter]: result.retryAfter },
        );
      }
      throw new ApiError(
        "idempotency_key_reuse",
        "This Idempotency-Key was used with a different request in the last 24 hours; use a new key",
        { idempotency_key: key },
      );
    };

    app.addHook("onRoute", (route) => {
      if (contractEntryOf(options.routes, route)?.batch) appendHook(route, "preHandler", guard);
    });

    // Global, not per route: a request holds a key only on a batch route. Callback hooks with a
    // synchronous way out, because they run on every response and most hold no key.
    const record = async (request: FastifyRequest, reply: FastifyReply, payload: unknown, held: HeldKey) => {
      settle(held);
      const status = reply.statusCode;
      try {
        if (outcomeOf(status) === "store" && (typeof payload === "string" || Buffer.isBuffer(payload))) {
          const body = typeof payload === "string" ? Buffer.from(payload) : payload;
          const headers = storedHeadersOf(reply.getHeaders());
          const now = clock.now();
          if (await storeResponse(sql, held.claim, { status, headers, body }, now)) {
            stored.set(held.claim.organizationId, held.claim.key, {
              fingerprint: held.fingerprint,
              expiresAt: now + RETENTION_MS,
              response: { status, headers, body },
            });
          } else {
            request.log.warn("idempotency key taken over before the response was stored");
          }
        } else {
          await releaseClaim(sql, held.claim, clock.now());
        }
      } catch (error) {
        // The answer still goes out; without its heartbeat the key frees itself after LEASE_MS.
        request.log.error({ err: error }, "idempotency record not updated");
      }
    };
    app.addHook("onSend", (request, reply, payload, done) => {
      const held = request.idempotency;
      if (!held || held.settled) return done(null, payload);
      void record(request, reply, payload, held).then(() => done(null, payload));
    });

    // A request that ended without passing onSend must not keep its key until the lease lapses.
    app.addHook("onResponse", (request, _reply, done) => {
      const held = request.idempotency;
      if (!held || held.settled) return done();
      settle(held);
      releaseClaim(sql, held.claim, clock.now())
        .catch((error: unknown) => request.log.error({ err: error }, "idempotency key not released"))
        .finally(() => done());
    });

    const every = options.purgeIntervalMs ?? PURGE_INTERVAL_MS;
    if (every > 0) {
      const timer = setInterval(() => {
        purgeExpired(sql, clock.now()).catch((error: unknown) =>
          app.log.error({ err: error }, "idempotency purge failed"),
        );
      }, every);
      timer.unref();
      app.addHook("onClose", async () => clearInterval(timer));
    }
  },
);

/** The stored answer byte for byte, with its stored headers; X-Request-Id and X-RateLimit-* are this request's. */
const replay = (
  reply: FastifyReply,
  response: { status: number; headers: Record<string, string>; body: Buffer },
) =>
  reply
    .status(response.status)
    .headers(response.headers)
    .header(HEADERS.idempotencyReplayed, "true")
    .send(response.body);
