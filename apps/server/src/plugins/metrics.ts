import { createHash, timingSafeEqual } from "node:crypto";
import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from "prom-client";
import { lastCompleteSnapshot } from "../data/rollup-status.js";
import type { Sql } from "../data/sql.js";
import type { StandbyReport } from "../data/standbys.js";
import { bearerToken } from "../domain/auth/api-key.js";
import { ApiError } from "../errors.js";
import { httpRequestMetrics } from "./http-metrics.js";
import { globalPlugin } from "./plugin.js";

/** What a pg.Pool tells about itself; read at scrape time. */
export type PoolStats = { totalCount: number; idleCount: number; waitingCount: number };

/** The newest complete snapshot: the last successful rollup, whichever process ran it. */
export type LastRollup = () => Promise<{ computedAt: Date; durationMs: number } | null>;

export type MetricsOptions = {
  pool?: PoolStats;
  poolMax?: number;
  lastRollup?: LastRollup;
  /** Node.js process metrics (heap, event loop lag, GC, file descriptors); off in unit tests. */
  processMetrics?: boolean;
};

/**
 * The server's Prometheus metrics, one registry per app (not prom-client's global one, so two apps
 * in one test process do not share counters). HTTP, limits and idempotency metrics are read off
 * each final response by the plugin below; the rollup job reports its own runs through
 * `observeRollup`, because a rollup is not a request.
 */
export type Metrics = {
  registry: Registry;
  /** Call once per rollup run (scheduled or CLI) with its wall time and outcome. */
  observeRollup(durationMs: number, outcome: "success" | "failure"): void;
  /** Called by the plugin for every response. */
  recordResponse(response: ResponseSample): void;
  /** A GET of the contract looked up in the response cache: answered from it (`kept`) or not. */
  recordKeptAnswer(kept: boolean): void;
  /** This replica began refusing a client past the failed-authentication limit (until its minute ends). */
  recordBlockedClient(): void;
  /** Reports the read standbys at scrape time (state, lag, statements), by standby. */
  observeStandbys(report: () => Promise<StandbyReport[]>): void;
};

export type ResponseSample = {
  method: string;
  /** The route pattern, never the raw URL: label values must stay few. */
  route: string;
  status: number;
  durationMs: number;
  /** The error envelope's code and, for rate limits, its window. */
  error: { code: string; window: string | null } | null;
  replayed: boolean;
};

export const createMetrics = (options: MetricsOptions = {}): Metrics => {
  const registry = new Registry();
  const registers = [registry];
  if (options.processMetrics ?? true) collectDefaultMetrics({ register: registry });

  const rollupRuns = new Histogram({
    name: "gmi_rollup_duration_seconds",
    help: "Wall time of rollup runs in this process, by outcome",
    labelNames: ["outcome"] as const,
    buckets: [0.5, 1, 2.5, 5, 10, 30, 60, 120, 300, 600, 1800],
    registers,
  });

  const { pool, lastRollup } = options;
  if (pool) {
    const poolGauge = (name: string, help: string, read: () => number) =>
      new Gauge({
        name,
        help,
        registers,
        collect() {
          this.set(read());
        },
      });
    poolGauge("gmi_db_pool_connections", "Open connections in the PostgreSQL pool", () => pool.totalCount);
    poolGauge(
      "gmi_db_pool_idle_connections",
      "Idle connections in the PostgreSQL pool",
      () => pool.idleCount,
    );
    poolGauge(
      "gmi_db_pool_waiting_requests",
      "Queries waiting for a free pool connection (sustained > 0: the pool is too small)",
      () => pool.waitingCount,
    );
    if (options.poolMax !== undefined) {
      const max = options.poolMax;
      poolGauge("gmi_db_pool_max_connections", "Configured size of the PostgreSQL pool", () => max);
    }
  }
  if (lastRollup) {
    // Read from the database at scrape time: the rollup may have run in another replica or in the
    // CLI. One read serves both gauges of a scrape; a failed read keeps the last known value.
    type Last = Awaited<ReturnType<LastRollup>>;
    let known: Last = null;
    let read: { at: number; value: Promise<Last> } | null = null;
    const load = () => {
      if (!read || Date.now() - read.at > 1_000) {
        read = {
          at: Date.now(),
          value: lastRollup().then(
            (last) => (known = last),
            () => known,
          ),
        };
      }
      return read.value;
    };
    new Gauge({
      name: "gmi_rollup_last_success_timestamp_seconds",
      help: "When the newest complete snapshot was computed (Unix time; 0 = never)",
      registers,
      async collect() {
        const last = await load();
        this.set(last ? last.computedAt.getTime() / 1000 : 0);
      },
    });
    new Gauge({
      name: "gmi_rollup_last_duration_seconds",
      help: "Compute time of the newest complete snapshot",
      registers,
      async collect() {
        const last = await load();
        this.set(last ? last.durationMs / 1000 : 0);
      },
    });
  }

  const http = httpRequestMetrics(registry, [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10]);
  const rateLimited = new Counter({
    name: "gmi_rate_limit_rejections_total",
    help: "429 rate_limit_exceeded answers, by the window that was full",
    labelNames: ["window"] as const,
    registers,
  });
  const quotaRejected = new Counter({
    name: "gmi_quota_rejections_total",
    help: "402 quota_exceeded answers",
    registers,
  });
  const replays = new Counter({
    name: "gmi_idempotency_replays_total",
    help: "Responses replayed from the idempotency store (Idempotency-Replayed: true)",
    registers,
  });
  const conflicts = new Counter({
    name: "gmi_idempotency_conflicts_total",
    help: "Idempotency refusals: in_flight (409 idempotency_conflict), key_reuse (422 idempotency_key_reuse)",
    labelNames: ["kind"] as const,
    registers,
  });

  const blockedClients = new Counter({
    name: "gmi_auth_failure_blocks_total",
    help: "Clients this replica began refusing (429) past the failed-authentication limit: one per client and minute",
    registers,
  });

  // Plain numbers read at scrape time, like the HTTP tallies: this runs on every cached read.
  const lookups = { hit: 0, miss: 0 };
  new Counter({
    name: "gmi_response_cache_lookups_total",
    help: "GETs of the contract by whether a kept answer served them (hit) or the read ran (miss; /me always)",
    labelNames: ["outcome"] as const,
    registers,
    collect() {
      this.reset();
      this.inc({ outcome: "hit" }, lookups.hit);
      this.inc({ outcome: "miss" }, lookups.miss);
    },
  });

  return {
    registry,
    observeStandbys: (report) => standbyMetrics(registers, report),
    recordKeptAnswer: (kept) => {
      if (kept) lookups.hit++;
      else lookups.miss++;
    },
    recordBlockedClient: () => blockedClients.inc(),
    observeRollup: (durationMs, outcome) => rollupRuns.observe({ outcome }, durationMs / 1000),
    recordResponse: (r) => {
      http.record(r.method, r.route, r.status, r.durationMs / 1000);
      if (r.replayed) replays.inc();
      switch (r.error?.code) {
        case "rate_limit_exceeded":
          rateLimited.inc({ window: r.error.window ?? "unknown" });
          break;
        case "quota_exceeded":
          quotaRejected.inc();
          break;
        case "idempotency_conflict":
          conflicts.inc({ kind: "in_flight" });
          break;
        case "idempotency_key_reuse":
          conflicts.inc({ kind: "key_reuse" });
          break;
      }
    },
  };
};

/** One read of the standbys' report per scrape, shared by its gauges. */
const standbyMetrics = (registers: Registry[], report: () => Promise<StandbyReport[]>) => {
  let read: { at: number; value: Promise<StandbyReport[]> } | null = null;
  const load = () => {
    if (!read || Date.now() - read.at > 1_000) read = { at: Date.now(), value: report() };
    return read.value;
  };
  const gauge = (name: string, help: string, value: (standby: StandbyReport) => number | null) =>
    new Gauge({
      name,
      help,
      labelNames: ["standby"] as const,
      registers,
      async collect() {
        this.reset();
        for (const standby of await load()) {
          const v = value(standby);
          if (v !== null) this.set({ standby: standby.name }, v);
        }
      },
    });
  gauge("gmi_db_standby_up", "1 while the read standby answers its checks as a standby", (s) =>
    s.state === "down" ? 0 : 1,
  );
  gauge(
    "gmi_db_standby_serving",
    "1 while the read standby takes reads (up, within the lag bound, current)",
    (s) => (s.state === "serving" ? 1 : 0),
  );
  gauge("gmi_db_standby_lag_seconds", "How far the read standby's replay is behind the primary", (s) =>
    s.lag_ms === null ? null : s.lag_ms / 1000,
  );
  new Counter({
    name: "gmi_db_standby_statements_total",
    help: "Statements the read standby ran for reads",
    labelNames: ["standby"] as const,
    registers,
    async collect() {
      this.reset();
      for (const standby of await load()) this.inc({ standby: standby.name }, standby.statements);
    },
  });
};

/** Pool use (when `sql` is a pg.Pool) and the last rollup, both read from the app's database. */
export const databaseMetricsSources = (sql: Sql): Pick<MetricsOptions, "pool" | "poolMax" | "lastRollup"> => {
  const pool =
    "totalCount" in sql ? (sql as unknown as PoolStats & { options?: { max?: number } }) : undefined;
  return {
    ...(pool ? { pool, poolMax: pool.options?.max } : {}),
    lastRollup: () => lastCompleteSnapshot(sql),
  };
};

declare module "fastify" {
  interface FastifyInstance {
    /** The app's metrics: jobs running in the server report to it (`app.metrics.observeRollup`). */
    metrics: Metrics;
  }
  interface FastifyRequest {
    /** The error envelope's code and rate-limit window, noted at onSend for the metrics. */
    errorCode: ResponseSample["error"];
  }
}

/** The code (and rate-limit window) of an error envelope, from the serialized body. */
const readErrorCode = (payload: unknown): ResponseSample["error"] => {
  if (typeof payload !== "string" || !payload.startsWith("{")) return null;
  try {
    const body = JSON.parse(payload) as { error?: { code?: unknown; details?: { window?: unknown } } };
    const code = body.error?.code;
    if (typeof code !== "string") return null;
    const window = body.error?.details?.window;
    return { code, window: typeof window === "string" ? window : null };
  } catch {
    return null;
  }
};

const digest = (value: string) => createHash("sha256").update(value).digest();

export type MetricsPluginOptions = {
  metrics: Metrics;
  /** Bearer token that /metrics requires; without one, /metrics is not served at all. */
  token: string | undefined;
};

/**
 * Counts every response, whoever answered it (routes, the error handler, 404s), from the final
 * status and error code, so no other plugin has to call us. `GET /metrics` serves the registry in
 * the Prometheus text format behind its own bearer token (METRICS_TOKEN, not an API key: a
 * scraper is not a customer and must not be metered).
 */
export const metricsPlugin = globalPlugin<MetricsPluginOptions>(
  "metrics",
  async (app, { metrics, token }) => {
    app.decorate("metrics", metrics);
    app.decorateRequest("errorCode", null);
    // Callback hooks, not async ones: they run on every response, and a promise each is measurable.
    app.addHook("onSend", (request, reply, payload, done) => {
      if (reply.statusCode >= 400) request.errorCode = readErrorCode(payload);
      done(null, payload);
    });
    app.addHook("onResponse", (request, reply, done) => {
      metrics.recordResponse({
        method: request.method,
        // routeUrl: set per route by the request-context plugin; without it, Fastify's (slower) getter.
        route: request.routeUrl ?? request.routeOptions.url ?? "(unmatched)",
        status: reply.statusCode,
        durationMs: reply.elapsedTime,
        error: request.errorCode,
        replayed: reply.getHeader("idempotency-replayed") === "true",
      });
      done();
    });

    if (!token) return;
    const expected = digest(token);
    app.get("/metrics", async (request, reply) => {
      const given = bearerToken(request.headers.authorization);
      if (!given || !timingSafeEqual(digest(given), expected)) {
        throw new ApiError("unauthorized", "Send the metrics token as Authorization: Bearer <METRICS_TOKEN>");
      }
      return reply.type(metrics.registry.contentType).send(await metrics.registry.metrics());
    });
  },
);
