import type { FastifyInstance } from "fastify";
import Fastify from "fastify";
import { afterEach, describe, expect, it } from "vitest";
import { ApiError } from "../errors.js";
import { errorsPlugin } from "./errors.js";
import type { Metrics, MetricsOptions } from "./metrics.js";
import { createMetrics, metricsPlugin } from "./metrics.js";

const TOKEN = "metrics-token-for-tests";
const auth = (token = TOKEN) => ({ authorization: `Bearer ${token}` });

let app: FastifyInstance | undefined;
afterEach(async () => {
  await app?.close();
  app = undefined;
});

/** Only the errors plugin (for the envelope the metrics read) and ours, plus routes that fail on cue. */
const start = async (token: string | null = TOKEN, options: MetricsOptions = {}) => {
  const metrics = createMetrics({ processMetrics: false, ...options });
  app = Fastify();
  await app.register(errorsPlugin, { bodyLimit: 1024 });
  await app.register(metricsPlugin, { metrics, token: token ?? undefined });
  app.get("/things/:id", async () => ({ ok: true }));
  app.get("/rate-limited", async () => {
    throw new ApiError(
      "rate_limit_exceeded",
      "slow down",
      { window: "day", limit: 10 },
      { "retry-after": 5 },
    );
  });
  app.get("/quota", async () => {
    throw new ApiError("quota_exceeded", "used up", { quota: 10, used: 10, resets_in: 60 });
  });
  app.post("/in-flight", async () => {
    throw new ApiError("idempotency_conflict", "busy", { idempotency_key: "k", retry_after: 1 });
  });
  app.post("/reuse", async () => {
    throw new ApiError("idempotency_key_reuse", "other body", { idempotency_key: "k" });
  });
  app.post("/replayed", async (_request, reply) => reply.header("idempotency-replayed", "true").send({}));
  await app.ready();
  return { app, metrics };
};

const scrape = async (target: FastifyInstance) => {
  const response = await target.inject({ method: "GET", url: "/metrics", headers: auth() });
  expect(response.statusCode).toBe(200);
  return response.body;
};

/** The value of one sample line, e.g. `gmi_quota_rejections_total 1`. */
const sample = (text: string, series: string) => {
  const line = text.split("\n").find((l) => l.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
};

describe("metrics plugin", () => {
  it("counts responses by method, route pattern and status, and times them", async () => {
    const { app } = await start();
    await app.inject({ method: "GET", url: "/things/1" });
    await app.inject({ method: "GET", url: "/things/2" });
    await app.inject({ method: "GET", url: "/nowhere" });
    const text = await scrape(app);
    expect(sample(text, 'gmi_http_requests_total{method="GET",route="/things/:id",status="200"}')).toBe(2);
    expect(sample(text, 'gmi_http_requests_total{method="GET",route="(unmatched)",status="404"}')).toBe(1);
    expect(
      sample(text, 'gmi_http_request_duration_seconds_count{method="GET",route="/things/:id",status="200"}'),
    ).toBe(2);
  });

  it("reads rate-limit, quota and idempotency outcomes from the final response", async () => {
    const { app } = await start();
    for (const [method, url] of [
      ["GET", "/rate-limited"],
      ["GET", "/quota"],
      ["POST", "/in-flight"],
      ["POST", "/reuse"],
      ["POST", "/replayed"],
      ["POST", "/replayed"],
    ] as const) {
      await app.inject({ method, url });
    }
    const text = await scrape(app);
    expect(sample(text, 'gmi_rate_limit_rejections_total{window="day"}')).toBe(1);
    expect(sample(text, "gmi_quota_rejections_total")).toBe(1);
    expect(sample(text, 'gmi_idempotency_conflicts_total{kind="in_flight"}')).toBe(1);
    expect(sample(text, 'gmi_idempotency_conflicts_total{kind="key_reuse"}')).toBe(1);
    expect(sample(text, "gmi_idempotency_replays_total")).toBe(2);
  });

  it("reports the database pool, the last rollup and rollup runs", async () => {
    const computedAt = new Date("2026-11-20T00:15:00Z");
    const { app, metrics } = await start(TOKEN, {
      pool: { totalCount: 7, idleCount: 5, waitingCount: 1 },
      poolMax: 10,
      lastRollup: async () => ({ computedAt, durationMs: 2_500 }),
    });
    (metrics as Metrics).observeRollup(1_200, "success");
    const text = await scrape(app);
    expect(sample(text, "gmi_db_pool_connections")).toBe(7);
    expect(sample(text, "gmi_db_pool_idle_connections")).toBe(5);
    expect(sample(text, "gmi_db_pool_waiting_requests")).toBe(1);
    expect(sample(text, "gmi_db_pool_max_connections")).toBe(10);
    expect(sample(text, "gmi_rollup_last_success_timestamp_seconds")).toBe(computedAt.getTime() / 1000);
    expect(sample(text, "gmi_rollup_last_duration_seconds")).toBe(2.5);
    expect(sample(text, 'gmi_rollup_duration_seconds_count{outcome="success"}')).toBe(1);
  });

  it("keeps the last known rollup time when the database cannot be read", async () => {
    let fail = false;
    const computedAt = new Date("2026-11-20T00:15:00Z");
    const { app } = await start(TOKEN, {
      lastRollup: async () => {
        if (fail) throw new Error("database down");
        return { computedAt, durationMs: 10 };
      },
    });
    await scrape(app);
    fail = true;
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    expect(sample(await scrape(app), "gmi_rollup_last_success_timestamp_seconds")).toBe(
      computedAt.getTime() / 1000,
    );
  });

  it("serves /metrics only with the token, in the Prometheus text format", async () => {
    const { app } = await start();
    const anonymous = await app.inject({ method: "GET", url: "/metrics" });
    expect(anonymous.statusCode).toBe(401);
    expect(anonymous.json()).toMatchObject({ error: { code: "unauthorized" } });
    const wrong = await app.inject({ method: "GET", url: "/metrics", headers: auth("not-the-token") });
    expect(wrong.statusCode).toBe(401);
    const ok = await app.inject({ method: "GET", url: "/metrics", headers: auth() });
    expect(ok.statusCode).toBe(200);
    expect(ok.headers["content-type"]).toMatch(/^text\/plain; version=0\.0\.4/);
    expect(ok.body).toContain("# TYPE gmi_http_requests_total counter");
  });

  it("does not serve /metrics without a configured token", async () => {
    const { app } = await start(null);
    const response = await app.inject({ method: "GET", url: "/metrics", headers: auth() });
    expect(response.statusCode).toBe(404);
  });

  it("adds Node.js process metrics unless told not to", () => {
    const names = createMetrics()
      .registry.getMetricsAsArray()
      .map((m) => m.name);
    expect(names).toContain("process_cpu_seconds_total");
    expect(names).toContain("nodejs_eventloop_lag_seconds");
  });
});
