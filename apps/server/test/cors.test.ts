import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "../src/config.js";
import type { TestApp } from "./helpers/app.js";
import { bearer, startTestApp } from "./helpers/app.js";
import { startWithinOneMinute } from "./helpers/minute.js";
import { useTestDatabase } from "./helpers/setup.js";
import { createTenant } from "./helpers/tenant.js";

const db = useTestDatabase();
const APP = "https://dashboard.example.com";
const preflight = (origin: string, url = "/api/v1/consoles") => ({
  method: "OPTIONS" as const,
  url,
  headers: {
    origin,
    "access-control-request-method": "GET",
    "access-control-request-headers": "authorization",
  },
});

describe("CORS with CORS_ORIGINS set", () => {
  let t: TestApp;
  let key: string;
  beforeAll(async () => {
    t = await startTestApp(db().pool, { env: { CORS_ORIGINS: `${APP}, http://localhost:5173` } });
    key = (await createTenant(db().pool, { plan: "free" })).key;
  });
  afterAll(() => t?.close());

  it("answers a preflight from an allowed origin with 204, without a key and without metering it", async () => {
    // Before and after in one minute window: a window that resets between them reads 29 left where
    // 28 are expected (seen on a slow embedded run); metered preflights would read fewer, not more.
    await startWithinOneMinute(10_000);
    const before = await t.app.inject({ url: "/api/v1/consoles", headers: bearer(key) });
    for (let i = 0; i < 3; i++) {
      const response = await t.app.inject(preflight(APP, "/api/v1/intelligence/batch"));
      expect(response.statusCode).toBe(204);
      expect(response.body).toBe("");
      expect(response.headers).toMatchObject({
        "access-control-allow-origin": APP,
        "access-control-allow-methods": expect.stringContaining("POST"),
        "access-control-max-age": "600",
        vary: expect.stringContaining("Origin"),
      });
      const allowed = String(response.headers["access-control-allow-headers"]).toLowerCase();
      // The SDK's identification headers too, or a browser could not send them.
      for (const header of [
        "authorization",
        "idempotency-key",
        "content-type",
        "x-gmi-client",
        "x-gmi-retry-count",
      ])
        expect(allowed).toContain(header);
      expect(response.headers["access-control-allow-credentials"]).toBeUndefined();
    }
    const after = await t.app.inject({ url: "/api/v1/consoles", headers: bearer(key) });
    expect(Number(after.headers["x-ratelimit-remaining"])).toBe(
      Number(before.headers["x-ratelimit-remaining"]) - 1,
    );
  });

  it("exposes the rate-limit, retry and request-id headers on answers, errors included", async () => {
    const ok = await t.app.inject({ url: "/api/v1/consoles", headers: { ...bearer(key), origin: APP } });
    expect(ok.statusCode).toBe(200);
    expect(ok.headers["access-control-allow-origin"]).toBe(APP);
    const exposed = String(ok.headers["access-control-expose-headers"]).toLowerCase().split(/,\s*/);
    expect(exposed).toEqual(
      expect.arrayContaining([
        "x-ratelimit-limit",
        "x-ratelimit-remaining",
        "x-ratelimit-reset",
        "retry-after",
        "x-request-id",
      ]),
    );
    const refused = await t.app.inject({
      url: "/api/v1/consoles",
      headers: { origin: "http://localhost:5173" },
    });
    expect(refused.statusCode).toBe(401);
    expect(refused.headers["access-control-allow-origin"]).toBe("http://localhost:5173");
    expect(refused.headers["access-control-expose-headers"]).toContain("X-Request-Id");
  });

  it("gives an origin not on the list no CORS headers, so the browser refuses it", async () => {
    const response = await t.app.inject(preflight("https://evil.example.com"));
    expect(response.statusCode).not.toBe(204);
    expect(response.headers["access-control-allow-origin"]).toBeUndefined();
    const get = await t.app.inject({
      url: "/api/v1/consoles",
      headers: { ...bearer(key), origin: "https://evil.example.com" },
    });
    expect(get.statusCode).toBe(200);
    expect(get.headers["access-control-allow-origin"]).toBeUndefined();
  });
});

describe("CORS by default (no CORS_ORIGINS)", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp(db().pool);
  });
  afterAll(() => t?.close());

  it("sends no CORS headers and answers no preflight", async () => {
    const response = await t.app.inject(preflight(APP));
    expect(response.statusCode).not.toBe(204);
    expect(Object.keys(response.headers).filter((h) => h.startsWith("access-control-"))).toEqual([]);
    const get = await t.app.inject({ url: "/api/v1/consoles", headers: { origin: APP } });
    expect(Object.keys(get.headers).filter((h) => h.startsWith("access-control-"))).toEqual([]);
  });
});

describe("CORS_ORIGINS=*", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp(db().pool, { env: { CORS_ORIGINS: "*" } });
  });
  afterAll(() => t?.close());

  it("allows any origin with a wildcard, never with credentials", async () => {
    const response = await t.app.inject(preflight("https://anything.example.org"));
    expect(response.statusCode).toBe(204);
    expect(response.headers["access-control-allow-origin"]).toBe("*");
    expect(response.headers.vary).toBeUndefined();
  });
});

describe("CORS_ORIGINS parsing", () => {
  it("refuses a value that is not an origin, naming the variable", () => {
    expect(() => loadConfig({ CORS_ORIGINS: "https://app.example.com/path" })).toThrow(/CORS_ORIGINS/);
    expect(() => loadConfig({ CORS_ORIGINS: "app.example.com" })).toThrow(/CORS_ORIGINS/);
    expect(
      loadConfig({ CORS_ORIGINS: "https://a.example.com,https://b.example.com:8443" }).corsOrigins,
    ).toEqual(["https://a.example.com", "https://b.example.com:8443"]);
    expect(loadConfig({}).corsOrigins).toEqual([]);
  });
});
