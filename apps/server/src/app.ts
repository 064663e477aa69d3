import { randomUUID } from "node:crypto";
import type { FastifyBaseLogger, FastifyInstance, FastifyReply } from "fastify";
import Fastify, { LogController } from "fastify";
import pino from "pino";
import { trackVersion } from "./caches/data-version.js";
import { makeCaches } from "./caches/index.js";
import type { Clock } from "./clock.js";
import { systemClock } from "./clock.js";
import type { Config } from "./config.js";
import { readDataVersion } from "./data/data-version.js";
import { keyUseRecorder } from "./data/key-use.js";
import { findKeyByHash, findKeysByHash } from "./data/keys.js";
import { primaryOnly, readRouting } from "./data/read-routing.js";
import { type Sql, withReadTimeout } from "./data/sql.js";
import type { Standbys } from "./data/standbys.js";
import { buildRouteTable } from "./domain/auth/scope-table.js";
import { ApiError } from "./errors.js";
import { lazyChildLogger } from "./logging/lazy-child.js";
import { batchedLineWriter, type LineWriter } from "./logging/line-writer.js";
import { accountUsage } from "./metering/account-usage.js";
import { authFailureLimiter } from "./metering/auth-failures.js";
import type { UsageStore } from "./metering/quota-store.js";
import type { LimiterStore } from "./metering/window-store.js";
import { authPlugin } from "./plugins/auth.js";
import { batchAdmissionPlugin } from "./plugins/batch-admission.js";
import { corsPlugin } from "./plugins/cors.js";
import { dashboardPlugin } from "./plugins/dashboard.js";
import { docsPlugin } from "./plugins/docs.js";
import { earlyAnswersPlugin } from "./plugins/early-answers.js";
import { errorsPlugin, protocolErrorHandler, toApiError } from "./plugins/errors.js";
import type { ReadinessCheck } from "./plugins/health.js";
import { healthPlugin } from "./plugins/health.js";
import { jsonBodyPlugin } from "./plugins/json-body.js";
import { limitsPlugin } from "./plugins/limits.js";
import type { Metrics } from "./plugins/metrics.js";
import { createMetrics, databaseMetricsSources, metricsPlugin } from "./plugins/metrics.js";
import { openApiPlugin } from "./plugins/openapi.js";
import { requestContextPlugin } from "./plugins/request-context.js";
import { responseHeadersPlugin } from "./plugins/response-headers.js";
import { readDeps } from "./reads/deps.js";
import { registerContractRoutes } from "./routes/index.js";

/** Everything the app needs, built once by main.ts (or a test) and passed in. */
export type AppDeps = {
  config: Config;
  sql: Sql;
  /** Fastify's logger, and the request log line's destination (createLogger). */
  logger: pino.Logger;
  limiter: LimiterStore;
  usage: UsageStore;
  clock?: Clock;
  /** Defaults to "database answers SELECT 1". */
  readiness?: ReadinessCheck[];
  /** How long the reads of a request wait for PostgreSQL (withReadTimeout); absent or 0: they wait. */
  readTimeoutMs?: number;
  /** Defaults to a registry of this app's own, fed from `sql` (pool use, last rollup). */
  metrics?: Metrics;
  /** Standbys that take snapshot, catalog and history reads (DATABASE_READ_URL); absent: none. */
  standbys?: Standbys;
};

/** How often a server writes when the keys it admitted were last used (`last_used_at`, to the minute). */
const KEY_USE_WRITE_MS = 60_000;

/** One writer for standard output, shared by every logger of the process (tests build many apps). */
let stdoutWriter: LineWriter | null = null;
export const bufferedStdout = (): LineWriter => {
  stdoutWriter ??= batchedLineWriter(1);
  return stdoutWriter;
};

/** JSON lines; no request headers are ever logged, and the key would be redacted if one were. */
export const createLogger = (
  config: Pick<Config, "logLevel">,
  destination: pino.DestinationStream = bufferedStdout(),
) =>
  pino(
    {
      level: config.logLevel,
      base: { service: "gmi" },
      redact: ["req.headers.authorization", "headers.authorization", "authorization"],
    },
    destination,
  );

/**
 * Builds the app without listening (server.ts listens). Plugins are registered here and only here,
 * in the order a request meets them: errors, JSON body bound, request id and log line, response
 * headers, CORS, metrics, auth, limits, batch admission, then health, documents, the dashboard, early
 * answers and the contract's routes (docs/architecture.md, "Plugin order").
 * The instance is returned before `ready()`, so a test may add routes of its own.
 */
export const buildApp = async (deps: AppDeps): Promise<FastifyInstance> => {
  const clock = deps.clock ?? systemClock;
  const { config } = deps;
  const app = Fastify({
    // Typed as Fastify's base logger, so the instance type stays the one every plugin is written for.
    loggerInstance: deps.logger as FastifyBaseLogger,
    genReqId: () => randomUUID(),
    // Our own one-line-per-request log (plugins/request-context.ts) replaces Fastify's two lines.
    logController: new LogController({ requestIdLogLabel: "request_id", disableRequestLogging: true }),
    // The request's child logger (its request id bound) is made when something logs through it.
    childLoggerFactory: lazyChildLogger,
    bodyLimit: config.bodyLimitBytes,
    // request.ip: the socket's peer, or the client a proxy of TRUST_PROXY names in X-Forwarded-For
    // (the rightmost address not itself a trusted proxy), so a client cannot name itself.
    trustProxy: config.trustProxy.length > 0 ? config.trustProxy : false,
    // Draining (SIGTERM): requests already arriving on open connections are answered, each with
    // `Connection: close`, rather than refused with a 503 that a proxy retries only for some methods;
    // new connections are refused, which a proxy retries on another replica (compose.yaml).
    return503OnClosing: false,
    // A 200-character title (the contract's longest text parameter) percent-encoded: up to 12
    // characters each; anything longer is a 422 (plugins/errors.ts) before it is decoded.
    routerOptions: { maxParamLength: 2_400 },
    // Node would answer a request without Host with a bare 400 of its own; we serve it (no route
    // depends on the host), so every answer stays ours.
    http: { requireHostHeader: false },
    // Bytes Node's parser refuses (bad header, bare CR, CL with TE, oversized head): the envelope too.
    clientErrorHandler: protocolErrorHandler(deps.logger as FastifyBaseLogger),
    // Errors raised before routing (a malformed URL) get the same envelope and request id.
    frameworkErrors: (error, request, reply) => {
      const mapped =
        toApiError(error, config.bodyLimitBytes) ??
        new ApiError("server_error", "An unexpected error occurred", { request_id: String(request.id) });
      (reply as unknown as FastifyReply)
        .header("x-request-id", request.id)
        .header("x-content-type-options", "nosniff")
        .status(mapped.status)
        .headers(mapped.headers)
        .send(mapped.toBody());
    },
  });

  // The batch routes' idempotency records are written through `deps.sql` and always waited for;
  // the usage store bounds its own waits (metering/postgres-quota.ts).
  const reads = withReadTimeout(deps.sql, deps.readTimeoutMs ?? 0);
  // The fingerprint of the data answers are built from, read at most once a second: the caches keep
  // answers while it holds, and a standby serves reads only while it reports the same.
  const version = trackVersion(() => readDataVersion(reads), clock, 1_000);
  const fingerprint = async () => (await version.current()).value;
  const { standbys } = deps;
  // Snapshot, catalog and history reads on the standbys of DATABASE_READ_URL; everything else on the primary.
  const routing = standbys ? readRouting(reads, standbys, fingerprint) : primaryOnly(reads);
  // Every cache is built here, once, and shared (docs/architecture.md, Caches).
  const caches = makeCaches(config, clock, {
    key: (hash) => findKeyByHash(reads, hash),
    keys: (hashes) => findKeysByHash(reads, hashes),
    version,
    onError: (error) => deps.logger.warn({ err: error }, "api key read-ahead failed"),
  });

  await app.register(errorsPlugin, { bodyLimit: config.bodyLimitBytes });
  await app.register(jsonBodyPlugin);
  await app.register(requestContextPlugin, { logger: deps.logger });
  const routes = buildRouteTable();
  await app.register(responseHeadersPlugin, { routes });
  await app.register(corsPlugin, { origins: config.corsOrigins });
  // Counts every response (errors and 404s included) from its final status and error code.
  const metrics =
    deps.metrics ??
    createMetrics({ ...databaseMetricsSources(deps.sql), processMetrics: config.nodeEnv !== "test" });
  await app.register(metricsPlugin, { metrics, token: config.metricsToken });
  // A client's 401s count in the rate-window store, as the plans' windows do (shared through Redis).
  const failures =
    config.authFailuresPerMinute > 0
      ? authFailureLimiter({
          limiter: deps.limiter,
          clock,
          blocked: caches.blockedClients,
          perMinute: config.authFailuresPerMinute,
          onBlocked: (client, until) => {
            metrics.recordBlockedClient();
            deps.logger.warn(
              { client, until: new Date(until).toISOString() },
              "too many failed authentications: client refused until the minute ends",
            );
          },
        })
      : null;
  // Each key's last use, written once a minute for every key this server admitted since. Given up
  // on like a read when PostgreSQL hangs: applied late, the later time still wins.
  const keyUse = keyUseRecorder(reads, {
    everyMs: KEY_USE_WRITE_MS,
    onError: (error) => deps.logger.warn({ err: error }, "key last-use write failed; retrying at the next"),
  });
  app.addHook("onClose", () => keyUse.close());
  await app.register(authPlugin, {
    lookup: caches.keys,
    readKey: caches.presentedKeys,
    clock,
    routes,
    failures,
    keyUse,
  });
  // Ordinary routes: one unit at onRequest. Batch routes: key, claim, decision, charge, store.
  const metering = { limiter: deps.limiter, usage: deps.usage, clock };
  await app.register(limitsPlugin, { ...metering, routes });
  await app.register(batchAdmissionPlugin, {
    ...metering,
    sql: deps.sql,
    routes,
    stored: caches.storedAnswers,
  });
  const standbyReport = standbys && (async () => standbys.report(await fingerprint()));
  if (standbyReport) metrics.observeStandbys(standbyReport);
  await app.register(healthPlugin, {
    checks: deps.readiness ?? [{ name: "database", check: () => deps.sql.query("SELECT 1") }],
    ...(standbyReport ? { standbys: standbyReport } : {}),
  });
  await app.register(openApiPlugin);
  await app.register(docsPlugin);
  await app.register(dashboardPlugin, { dir: config.dashboardDir });
  // Kept answers go out before validation and the handler (routes registered after this).
  await app.register(earlyAnswersPlugin, {
    answers: caches.responses,
    routes,
    onLookup: (kept) => metrics.recordKeptAnswer(kept),
  });
  await registerContractRoutes(app, {
    reads: readDeps({ routing, clock, usage: accountUsage(metering), config, caches }),
    responses: caches.responses,
    publicBaseUrl: config.publicBaseUrl,
  });
  return app;
};
