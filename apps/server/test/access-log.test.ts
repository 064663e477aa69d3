import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildApp, createLogger } from "../src/app.js";
import { accessLogWriter } from "../src/logging/access-line.js";
import { pgUsageStore } from "../src/metering/postgres-quota.js";
import type { UsageStore } from "../src/metering/quota-store.js";
import { memoryLimiterStore } from "../src/metering/window-store.js";
import { bearer, testConfig } from "./helpers/app.js";
import { useTestDatabase } from "./helpers/setup.js";
import { createTenant } from "./helpers/tenant.js";

const db = useTestDatabase();

/** A logger at `level` whose lines are kept, parsed. */
const capturing = (level: string) => {
  const lines: Array<Record<string, unknown>> = [];
  const logger = createLogger(
    { logLevel: level as "info" },
    { write: (line: string) => lines.push(JSON.parse(line)) },
  );
  return { logger, lines };
};

describe("the request log line", () => {
  it("is what pino's child logger would write, time aside", () => {
    const ours = capturing("info");
    const theirs = capturing("info");
    const entry = {
      requestId: "3b241101-e2bb-4255-8caf-4136c566a962",
      method: "GET",
      route: '/api/v1/games/title/:title "quoted" \\ and \u00e9',
      status: 200,
      durationMs: 1.25,
      organizationId: 7,
    };
    // One writer for all three lines: the repeated method and route come from what it kept.
    const write = accessLogWriter(ours.logger);
    write(entry);
    write({ ...entry, route: null, organizationId: null, status: 404 });
    write(entry);
    write({ ...entry, client: "gmi-sdk/1.0.0 node/24.1.0", retry: 2 });
    const child = theirs.logger.child({ request_id: entry.requestId });
    const served = { method: "GET", route: entry.route, status: 200, duration_ms: 1.25, organization_id: 7 };
    child.info(served, "request");
    child.info(
      { method: "GET", route: null, status: 404, duration_ms: 1.25, organization_id: null },
      "request",
    );
    child.info(served, "request");
    child.info({ ...served, client: "gmi-sdk/1.0.0 node/24.1.0", retry: 2 }, "request");
    const withoutTime = (lines: Array<Record<string, unknown>>) =>
      lines.map(({ time: _time, ...rest }) => rest);
    expect(withoutTime(ours.lines)).toEqual(withoutTime(theirs.lines));
    // Key order as well: the lines read the same in a terminal or a grep.
    expect(ours.lines.map(Object.keys)).toEqual(theirs.lines.map(Object.keys));
    expect(typeof ours.lines[0]?.time).toBe("number");
  });

  it("is not written above the info level", () => {
    const quiet = capturing("warn");
    accessLogWriter(quiet.logger)({
      requestId: "x",
      method: "GET",
      route: null,
      status: 200,
      durationMs: 1,
      organizationId: null,
    });
    expect(quiet.lines).toEqual([]);
  });

  describe("in the app", () => {
    const { logger, lines } = capturing("info");
    let app: FastifyInstance;
    let usage: UsageStore;
    beforeAll(async () => {
      const config = testConfig({ LOG_LEVEL: "info" });
      usage = pgUsageStore(db().pool, { flushMs: 60_000 });
      app = await buildApp({ config, sql: db().pool, logger, limiter: memoryLimiterStore(), usage });
      await app.ready();
    });
    afterAll(async () => {
      await app?.close();
      await usage?.close();
    });

    it("says the request id of the response, the route pattern, the status and the organization", async () => {
      const tenant = await createTenant(db().pool);
      const served = await app.inject({ url: "/api/v1/games/game/101", headers: bearer(tenant.key) });
      const missing = await app.inject({ url: "/api/v1/nowhere" });
      const line = (requestId: unknown) =>
        lines.find((l) => l.msg === "request" && l.request_id === requestId);
      expect(line(served.headers["x-request-id"])).toMatchObject({
        level: 30,
        service: "gmi",
        method: "GET",
        route: "/api/v1/games/game/:id",
        status: 200,
        organization_id: tenant.organizationId,
      });
      expect(line(missing.headers["x-request-id"])).toMatchObject({
        route: null,
        status: 404,
        organization_id: null,
      });
      expect(JSON.stringify(lines)).not.toContain(tenant.key);
    });

    it("says which SDK and runtime sent the request and which retry it is, parsed and bounded", async () => {
      const tenant = await createTenant(db().pool);
      const send = (headers: Record<string, string>) =>
        app.inject({ url: "/api/v1/games/game/101", headers: { ...bearer(tenant.key), ...headers } });
      const line = (response: { headers: Record<string, unknown> }) =>
        lines.find((l) => l.msg === "request" && l.request_id === response.headers["x-request-id"]);
      const sdk = await send({ "x-gmi-client": "gmi-sdk/1.0.0 deno/2.1.4", "x-gmi-retry-count": "2" });
      expect(line(sdk)).toMatchObject({ client: "gmi-sdk/1.0.0 deno/2.1.4", retry: 2 });
      // curl and friends: nothing said, nothing logged.
      const plain = await send({ "user-agent": "curl/8.5.0" });
      expect(line(plain)).not.toHaveProperty("client");
      expect(line(plain)).not.toHaveProperty("retry");
      // Whatever does not read as the SDK's headers is left out, never copied into the log.
      for (const junk of <Array<Record<string, string>>>[
        { "x-gmi-client": `gmi-sdk/1.0.0 ${"x".repeat(200)}/1` },
        { "x-gmi-client": 'gmi-sdk/1.0.0","admin":true' },
        { "x-gmi-client": "gmi-sdk/1.0.0\nnode/24" },
        { "x-gmi-retry-count": "-1" },
        { "x-gmi-retry-count": "1e9" },
        { "x-gmi-retry-count": "101" },
      ]) {
        const response = await send(junk);
        expect(response.statusCode).toBe(200);
        expect(line(response)).not.toHaveProperty("client");
        expect(line(response)).not.toHaveProperty("retry");
      }
    });
  });
});
