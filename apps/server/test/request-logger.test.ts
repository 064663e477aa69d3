import type { FastifyInstance } from "fastify";
import type pino from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildApp, createLogger } from "../src/app.js";
import { memoryUsageStore } from "../src/metering/quota-store.js";
import { memoryLimiterStore } from "../src/metering/window-store.js";
import { testConfig } from "./helpers/app.js";
import { useTestDatabase } from "./helpers/setup.js";

const db = useTestDatabase({ catalog: false });
const lines: Array<Record<string, unknown>> = [];
let app: FastifyInstance;

beforeAll(async () => {
  const config = testConfig({ LOG_LEVEL: "info" });
  const logger = createLogger(config, { write: (line: string) => lines.push(JSON.parse(line)) });
  app = await buildApp({
    config,
    sql: db().pool,
    logger,
    limiter: memoryLimiterStore(),
    usage: memoryUsageStore(),
  });
  app.get("/test/fails", async () => {
    throw new Error("boom");
  });
  app.get("/test/logs", async (request) => {
    request.log.info({ step: 1 }, "first");
    request.log.child({ part: "inner" }).warn("second");
    return {
      debug: (request.log as unknown as pino.Logger).isLevelEnabled("debug"),
      level: request.log.level,
    };
  });
  await app.ready();
});
afterAll(() => app?.close());

describe("a request's own log lines (made on first use)", () => {
  it("carry the request id of the response and the service, as pino's child would", async () => {
    const response = await app.inject({ url: "/test/logs" });
    const requestId = response.headers["x-request-id"];
    expect(response.json()).toEqual({ debug: false, level: "info" });
    expect(lines.find((l) => l.msg === "first")).toMatchObject({
      request_id: requestId,
      service: "gmi",
      step: 1,
    });
    expect(lines.find((l) => l.msg === "second")).toMatchObject({
      request_id: requestId,
      part: "inner",
      level: 40,
    });
  });

  it("an unhandled error is logged with the request id its 500 says", async () => {
    const response = await app.inject({ url: "/test/fails" });
    expect(response.statusCode).toBe(500);
    const requestId = response.headers["x-request-id"];
    expect(lines.find((l) => l.msg === "unhandled error")).toMatchObject({
      request_id: requestId,
      level: 50,
      err: { message: "boom" },
    });
  });
});
