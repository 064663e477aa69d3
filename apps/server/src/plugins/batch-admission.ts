import { HEADERS, IdempotencyKeySchema, listRoutes } from "@gmi/contract";
import type { FastifyReply, FastifyRequest } from "fastify";
import type { ZodTypeAny } from "zod";
import type { StoredAnswers } from "../caches/stored-answers.js";
import type { Clock } from "../clock.js";
import type { Claim, ClaimResult } from "../data/idempotency.js";
import {
  claimKey,
  markPaid,
  purgeExpired,
  releaseClaim,
  renewClaim,
  storeResponse,
} from "../data/idempotency.js";
import type { Sql } from "../data/sql.js";
import type { AuthContext } from "../domain/auth/authorize.js";
import { type RouteEntry, routeKey } from "../domain/auth/scope-table.js";
import { type BatchShape, batchShape } from "../domain/batch/requests.js";
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
import { type BatchCharge, batchCharge } from "../domain/limits/batch-cost.js";
import { ApiError, validationFailed } from "../errors.js";
import { authOf } from "../http-request.js";
import type { MeterDeps, PaidMark } from "../metering/meter.js";
import { meterBatch, rateLimitHeaders } from "../metering/meter.js";
import { globalPlugin } from "./plugin.js";
import { appendHook, contractEntryOf } from "./route-hooks.js";

export type BatchAdmissionOptions = MeterDeps & {
  sql: Sql;
  clock: Clock;
  routes: Map<string, RouteEntry>;
  /** Answers this server stored, kept for their replays (caches/stored-answers.ts). */
  stored: StoredAnswers;
  /** Defaults to PURGE_INTERVAL_MS; 0 turns the timer off (tests purge by hand). */
  purgeIntervalMs?: number;
};

/** A key this request holds until its answer is stored or the key released. */
type HeldKey = {
  claim: Claim;
  /** The request's fingerprint, kept with its stored answer. */
  fingerprint: string;
  heartbeat: NodeJS.Timeout;
  settled: boolean;
  /** The write recording that this request's units are charged; awaited before storing or releasing. */
  paid: Promise<void> | null;
};

const keyOf = (raw: string | string[]): string => {
  const parsed = IdempotencyKeySchema.safeParse(Array.isArray(raw) ? raw.join(", ") : raw);
  if (parsed.success) return parsed.data;
  throw validationFailed("header", HEADERS.idempotencyKey, parsed.error.issues[0]?.message ?? "is invalid");
};

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

/**
 * The admission of a batch request (spec, Limits rules 5 and 7, "States and transitions";
 * docs/idempotency.md), one preHandler on each batch route, after authentication and before the
 * handler, in five named steps:
 *   shape  the `requests` array checked once (domain/batch/requests.ts): its length is the cost;
 *   key    the Idempotency-Key header, if any, checked (a bad one is a refused request: one unit);
 *   claim  the key claimed, or its record read and decided (domain/idempotency/decide.ts);
 *   charge what the outcome costs (domain/limits/batch-cost.ts): the elements to the rate windows
 *          and the monthly quota, or one unit of the rate windows for an answer that does no work
 *          or a retry already paid; a charged holder records it is paid;
 *   store  the answer stored on the record, or the key released (onSend, before the answer leaves,
 *          so a client that saw an answer always gets its replay).
 * The handler then reads `body.requests`, whose shape this step established; a whole-batch refusal
 * (422) is thrown here, after its one unit is charged, and stored like any answer.
 */
export const batchAdmissionPlugin = globalPlugin<BatchAdmissionOptions>(
  "batch-admission",
  async (app, options) => {
    const { sql, clock, stored } = options;
    const querySchemas = new Map(
      listRoutes().flatMap(({ route }) =>
        route.query ? [[routeKey(route.method, route.path), route.query as ZodTypeAny] as const] : [],
      ),
    );
    /** The keys held by requests in progress; only this plugin's hooks read it. */
    const held = new WeakMap<FastifyRequest, HeldKey>();

    /** Charges `cost` and sets its headers; a held key's work also writes its paid mark (`mark`). */
    const charge = async (
      reply: FastifyReply,
      auth: AuthContext,
      cost: BatchCharge,
      mark: PaidMark | null = null,
    ) => {
      const { state, marked } = await meterBatch(options, auth.organization.id, auth.plan, cost, mark);
      reply.headers(rateLimitHeaders(state));
      // Wrapped: returned bare from an async function, the mark's write would be waited for here.
      return { marked };
    };

    const fingerprintOf = (request: FastifyRequest): string => {
      const queryAt = request.url.indexOf("?");
      const path = request.routeOptions.url ?? request.url.slice(0, queryAt === -1 ? undefined : queryAt);
      // The query as the route reads it, defaults filled (`?period=7d` = no period); raw if invalid.
      const parsed = querySchemas.get(routeKey(request.method, path))?.safeParse(request.query);
      return fingerprint({
        method: request.method,
        path,
        query: parsed?.success
          ? (parsed.data as Record<string, unknown>)
          : queryAt === -1
            ? ""
            : request.url.slice(queryAt + 1),
        body: request.body,
      });
    };

    /** An answer this server stored decides without a round trip; otherwise the record's row does. */
    const claim = async (organizationId: number, key: string, print: string): Promise<ClaimResult> => {
      const kept = stored.get(organizationId, key, clock.now());
      if (!kept) return claimKey(sql, { organizationId, key, fingerprint: print, now: clock.now() });
      const decision = decide(kept, print, clock.now());
      if (decision.kind === "process") throw new Error("a stored record decided to process");
      return decision;
    };

    const hold = (request: FastifyRequest, claimed: Claim, print: string): HeldKey => {
      let beats = 0;
      const heartbeat = setInterval(() => {
        if (++beats * HEARTBEAT_MS > MAX_HOLD_MS) return clearInterval(heartbeat);
        renewClaim(sql, claimed, clock.now()).then(
          (kept) => kept || request.log.warn("idempotency key taken over while in flight"),
          (error: unknown) => request.log.error({ err: error }, "idempotency lease renewal failed"),
        );
      }, HEARTBEAT_MS);
      heartbeat.unref();
      const key: HeldKey = { claim: claimed, fingerprint: print, heartbeat, settled: false, paid: null };
      held.set(request, key);
      return key;
    };

    /** The answer to a key that is not this request's to process: replayed, or refused. */
    const answerFromRecord = (
      reply: FastifyReply,
      key: string,
      result: Exclude<ClaimResult, { kind: "claimed" }>,
    ) => {
      if (result.kind === "replay") return replay(reply, result.response);
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

    const refuseWhole = (shape: BatchShape) => {
      if (!shape.ok) throw shape.refusal;
    };

    const admit = async (request: FastifyRequest, reply: FastifyReply) => {
      const auth = authOf(request);
      const shape = batchShape(request.body, auth.plan.max_batch_size);
      const raw = request.headers[HEADERS.idempotencyKey];
      if (raw === undefined) {
        await charge(reply, auth, batchCharge(shape, "work"));
        return refuseWhole(shape);
      }
      let key: string;
      try {
        key = keyOf(raw);
      } catch (error) {
        // A refused request is a request served: one unit, like a bad body.
        await charge(reply, auth, { units: 1, quota: true });
        throw error;
      }
      const print = fingerprintOf(request);
      const result = await claim(auth.organization.id, key, print);
      if (result.kind !== "claimed") {
        await charge(reply, auth, batchCharge(shape, "no work"));
        return answerFromRecord(reply, key, result);
      }
      if (result.takenOver) request.log.warn({ idempotency_key: key }, "idempotency key reclaimed");
      const holding = hold(request, result.claim, print);
      if (result.prepaid) {
        await charge(reply, auth, batchCharge(shape, "prepaid work"));
        return refuseWhole(shape);
      }
      // From here the units are spent: a retry after a crash or a 5xx must not pay them again. The
      // mark is written beside the work, with the units of a plan that would buffer them, so that
      // the two are durable together (docs/idempotency.md); storing or releasing the key waits for it.
      const mark: PaidMark = (units) => markPaid(sql, result.claim, print, units);
      const { marked } = await charge(reply, auth, batchCharge(shape, "work"), mark);
      holding.paid =
        marked?.catch((error: unknown) => {
          request.log.error({ err: error }, "idempotency payment not recorded");
        }) ?? null;
      return refuseWhole(shape);
    };

    const settle = (key: HeldKey) => {
      key.settled = true;
      clearInterval(key.heartbeat);
    };

    const record = async (request: FastifyRequest, reply: FastifyReply, payload: unknown, key: HeldKey) => {
      settle(key);
      const status = reply.statusCode;
      try {
        await key.paid;
        if (outcomeOf(status) === "store" && (typeof payload === "string" || Buffer.isBuffer(payload))) {
          const body = typeof payload === "string" ? Buffer.from(payload) : payload;
          const headers = storedHeadersOf(reply.getHeaders());
          const now = clock.now();
          if (await storeResponse(sql, key.claim, { status, headers, body }, now)) {
            stored.set(key.claim.organizationId, key.claim.key, {
              fingerprint: key.fingerprint,
              expiresAt: now + RETENTION_MS,
              response: { status, headers, body },
            });
          } else {
            request.log.warn("idempotency key taken over before the response was stored");
          }
        } else {
          await releaseClaim(sql, key.claim, clock.now());
        }
      } catch (error) {
        // The answer still goes out; without its heartbeat the key frees itself after LEASE_MS.
        request.log.error({ err: error }, "idempotency record not updated");
      }
    };

    const onSend = (
      request: FastifyRequest,
      reply: FastifyReply,
      payload: unknown,
      done: (error: null, payload: unknown) => void,
    ) => {
      const key = held.get(request);
      if (!key || key.settled) return done(null, payload);
      void record(request, reply, payload, key).then(() => done(null, payload));
    };

    // A request that ended without passing onSend must not keep its key until the lease lapses.
    const onResponse = (request: FastifyRequest, _reply: FastifyReply, done: () => void) => {
      const key = held.get(request);
      if (!key || key.settled) return done();
      settle(key);
      Promise.resolve(key.paid)
        .then(() => releaseClaim(sql, key.claim, clock.now()))
        .catch((error: unknown) => request.log.error({ err: error }, "idempotency key not released"))
        .finally(() => done());
    };

    app.addHook("onRoute", (route) => {
      const entry = contractEntryOf(options.routes, route);
      if (!entry?.batch) return;
      appendHook(route, "preHandler", admit);
      appendHook(route, "onSend", onSend);
      appendHook(route, "onResponse", onResponse);
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
