import { Counter, Histogram, Registry } from "prom-client";
import { describe, expect, it } from "vitest";
import { httpRequestMetrics } from "./http-metrics.js";

const BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1];

/** The same two metrics as prom-client's own Counter and Histogram: the reference output. */
const reference = () => {
  const registry = new Registry();
  const labelNames = ["method", "route", "status"] as const;
  const requests = new Counter({
    name: "gmi_http_requests_total",
    help: "Requests answered, by method, route pattern and status",
    labelNames,
    registers: [registry],
  });
  const duration = new Histogram({
    name: "gmi_http_request_duration_seconds",
    help: "Time from request received to response sent, by method, route pattern and status",
    labelNames,
    buckets: BUCKETS,
    registers: [registry],
  });
  return {
    registry,
    record: (method: string, route: string, status: number, seconds: number) => {
      const labels = { method, route, status: String(status) };
      requests.inc(labels);
      duration.observe(labels, seconds);
    },
  };
};

describe("httpRequestMetrics", () => {
  it("scrapes exactly as prom-client's counter and histogram fed the same requests", async () => {
    const ours = new Registry();
    const metrics = httpRequestMetrics(ours, BUCKETS);
    const theirs = reference();
    const requests: Array<[string, string, number, number]> = [
      ["GET", "/api/v1/games/titles", 200, 0.004],
      ["GET", "/api/v1/games/titles", 200, 0.005],
      ["GET", "/api/v1/games/titles", 200, 0.0125],
      ["GET", "/api/v1/games/titles", 429, 0.001],
      ["POST", "/api/v1/intelligence/batch", 207, 0.3],
      ["GET", "(unmatched)", 404, 0.05],
    ];
    for (const request of requests) {
      metrics.record(...request);
      theirs.record(...request);
    }
    expect(await ours.metrics()).toBe(await theirs.registry.metrics());
    // Scraping twice counts nothing twice.
    expect(await ours.metrics()).toBe(await theirs.registry.metrics());
  });

  it("counts the slowest requests in +Inf only, and empties on a registry reset", async () => {
    const registry = new Registry();
    const metrics = httpRequestMetrics(registry, BUCKETS);
    metrics.record("GET", "/slow", 200, 12);
    const text = await registry.metrics();
    expect(text).toContain(
      'gmi_http_request_duration_seconds_bucket{le="0.1",method="GET",route="/slow",status="200"} 0',
    );
    expect(text).toContain(
      'gmi_http_request_duration_seconds_bucket{le="+Inf",method="GET",route="/slow",status="200"} 1',
    );
    expect(text).toContain(
      'gmi_http_request_duration_seconds_sum{method="GET",route="/slow",status="200"} 12',
    );
    registry.resetMetrics();
    expect(await registry.metrics()).not.toContain('route="/slow"');
  });
});
