import { ErrorEnvelopeSchema } from "@gmi/contract";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TestApp } from "./helpers/app.js";
import { bearer, startTestApp } from "./helpers/app.js";
import { useTestDatabase } from "./helpers/setup.js";
import { createTenant } from "./helpers/tenant.js";

const db = useTestDatabase();
let t: TestApp;
let key: string;
beforeAll(async () => {
  t = await startTestApp(db().pool, {
    env: { BODY_LIMIT_BYTES: "2048" },
    extend: (app) => {
      app.get("/test/boom", async () => {
        throw new Error("secret internal detail");
      });
    },
  });
  key = (await createTenant(db().pool)).key;
});
afterAll(() => t?.close());

const errorOf = (
  response: { statusCode: number; json(): unknown; headers: Record<string, unknown> },
  status: number,
) => {
  expect(response.statusCode).toBe(status);
  expect(response.headers["x-request-id"]).toMatch(
    /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/,
  );
  return ErrorEnvelopeSchema.parse(response.json()).error;
};

const get = (url: string) => t.app.inject({ method: "GET", url, headers: bearer(key) });
const batch = (payload: string, contentType = "application/json") =>
  t.app.inject({
    method: "POST",
    url: "/api/v1/intelligence/batch",
    headers: { ...bearer(key), "content-type": contentType },
    payload,
  });

describe("framework errors", () => {
  it("404 not_found {resource: route} for an unknown route, with a request id", async () => {
    const error = errorOf(await t.app.inject({ method: "GET", url: "/api/v1/nope" }), 404);
    expect(error).toMatchObject({ code: "not_found", details: { resource: "route" } });
  });

  it("405 method_not_allowed with the allowed methods", async () => {
    const response = await t.app.inject({
      method: "DELETE",
      url: "/api/v1/games/game/101",
      headers: bearer(key),
    });
    const error = errorOf(response, 405);
    expect(error.code).toBe("method_not_allowed");
    expect(error.details).toEqual({ allowed: ["GET", "HEAD"] });
    expect(response.headers.allow).toBe("GET, HEAD");
  });

  it("413 payload_too_large above BODY_LIMIT_BYTES", async () => {
    const body = JSON.stringify({ requests: Array.from({ length: 400 }, (_, i) => ({ game_id: i + 1 })) });
    const error = errorOf(await batch(body), 413);
    expect(error).toMatchObject({ code: "payload_too_large", details: { max_bytes: 2048 } });
  });

  it("415 unsupported_media_type for a non-JSON body", async () => {
    const error = errorOf(await batch("requests=1", "application/x-www-form-urlencoded"), 415);
    expect(error).toMatchObject({
      code: "unsupported_media_type",
      details: { expected: "application/json" },
    });
  });

  it("415 for a JSON body sent as text/plain: the content type is not JSON, whatever the bytes", async () => {
    for (const type of ["text/plain", "text/plain; charset=utf-8"]) {
      const error = errorOf(await batch('{"requests":[{"game_id":101}]}', type), 415);
      expect(error).toMatchObject({
        code: "unsupported_media_type",
        details: { expected: "application/json" },
      });
    }
  });

  it("422 validation_failed (location body) for malformed JSON", async () => {
    const error = errorOf(await batch("{bad json"), 422);
    expect(error.code).toBe("validation_failed");
    expect(error.details).toMatchObject({ issues: [{ location: "body" }] });
  });

  it("500 server_error with the request id and no internals", async () => {
    const response = await t.app.inject({ method: "GET", url: "/test/boom" });
    const error = errorOf(response, 500);
    expect(error).toMatchObject({
      code: "server_error",
      details: { request_id: response.headers["x-request-id"] },
    });
    expect(response.body).not.toContain("secret internal detail");
    expect(response.body).not.toContain("at ");
  });
});

describe("422 validation_failed names each bad parameter", () => {
  const cases: Array<[string, string, string]> = [
    ["/api/v1/games/titles?limit=0", "query", "limit"],
    ["/api/v1/games/titles?limit=ten", "query", "limit"],
    ["/api/v1/games/titles?limit=2.5", "query", "limit"],
    ["/api/v1/games/titles?page=0", "query", "page"],
    ["/api/v1/games/titles?paginate=all", "query", "paginate"],
    ["/api/v1/games/titles?cursor=forged.cursor", "query", "cursor"],
    ["/api/v1/games/game/abc", "path", "id"],
    ["/api/v1/games/game/0", "path", "id"],
    ["/api/v1/games/console/x", "path", "console_id"],
    ["/api/v1/intelligence?period=week", "query", "period"],
    ["/api/v1/intelligence?date=2026-02-30", "query", "date"],
    ["/api/v1/intelligence?sort=volume", "query", "sort"],
    ["/api/v1/intelligence?console_id=-1", "query", "console_id"],
  ];
  for (const [url, location, field] of cases) {
    it(`${url} → ${location}.${field}`, async () => {
      const error = errorOf(await get(url), 422);
      expect(error.code).toBe("validation_failed");
      expect(error.details).toMatchObject({
        issues: expect.arrayContaining([expect.objectContaining({ location, field })]),
      });
    });
  }

  it("several bad fields are all named", async () => {
    const error = errorOf(await get("/api/v1/games/titles?limit=0&page=x&paginate=no"), 422);
    const fields = (error.details as { issues: Array<{ field: string }> }).issues.map((i) => i.field).sort();
    expect(fields).toEqual(["limit", "page", "paginate"]);
  });

  it("a bad Idempotency-Key header is named", async () => {
    const response = await t.app.inject({
      method: "POST",
      url: "/api/v1/intelligence/batch",
      headers: { ...bearer(key), "content-type": "application/json", "idempotency-key": "has space" },
      payload: JSON.stringify({ requests: [{ game_id: 1 }] }),
    });
    const error = errorOf(response, 422);
    expect(error.details).toMatchObject({ issues: [{ location: "header", field: "idempotency-key" }] });
  });

  it("an empty batch is a 422 naming requests", async () => {
    const error = errorOf(await batch(JSON.stringify({ requests: [] })), 422);
    expect(error.details).toMatchObject({ issues: [{ location: "body", field: "requests" }] });
  });
});

describe("resources", () => {
  it("404 not_found {resource: game, id} for unknown and disabled games", async () => {
    for (const id of [999_999, 106]) {
      const error = errorOf(await get(`/api/v1/games/game/${id}`), 404);
      expect(error).toMatchObject({ code: "not_found", details: { resource: "game", id } });
    }
  });

  it("analytics routes answer 503 service_unavailable until a rollup has run (never 501)", async () => {
    for (const url of [
      "/api/v1/intelligence",
      "/api/v1/demand-intent/searches",
      "/api/v1/intelligence/101",
    ]) {
      const error = errorOf(await get(url), 503);
      expect(error.code).toBe("service_unavailable");
      expect(error.message).toMatch(/`gmi rollup`/);
    }
  });
});

describe("health and documents", () => {
  it("/healthz and /readyz answer without a key", async () => {
    expect((await t.app.inject({ url: "/healthz" })).json()).toEqual({ status: "ok" });
    expect((await t.app.inject({ url: "/readyz" })).statusCode).toBe(200);
  });

  it("/readyz is a 503 envelope when a dependency is down", async () => {
    const down = await startTestApp(db().pool, {
      readiness: [{ name: "database", check: () => Promise.reject(new Error("down")) }],
    });
    try {
      const error = errorOf(await down.app.inject({ url: "/readyz" }), 503);
      expect(error.code).toBe("service_unavailable");
    } finally {
      await down.close();
    }
  });

  it("serves the OpenAPI document without a key", async () => {
    const response = await t.app.inject({ url: "/api/v1/openapi.json" });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ openapi: expect.stringMatching(/^3\./) });
  });
});
