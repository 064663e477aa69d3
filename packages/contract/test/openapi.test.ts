import SwaggerParser from "@apidevtools/swagger-parser";
import { describe, expect, it } from "vitest";
import { listRoutes } from "../src/index.js";
import { buildOpenApiDocument } from "../src/openapi.js";

/** The endpoints the spec names, method and path as it writes them. */
const SPEC_ENDPOINTS = [
  "GET /api/v1/intelligence",
  "GET /api/v1/intelligence/{id}",
  "POST /api/v1/intelligence/batch",
  "GET /api/v1/intelligence/{id}/conditions",
  "GET /api/v1/demand-intent/searches",
  "GET /api/v1/demand-intent/searches/trending",
  "GET /api/v1/demand-intent/searches/unmet",
  "GET /api/v1/demand-intent/searches/conditions",
  "GET /api/v1/demand-intent/games/{game_id}/conditions",
  "GET /api/v1/me",
  "POST /api/v1/signals/batch",
  "GET /api/v1/consoles",
  "GET /api/v1/games/titles",
  "GET /api/v1/games/slugs",
  "GET /api/v1/games/game/{id}",
  "GET /api/v1/games/slug/{slug}",
  "GET /api/v1/games/title/{title}",
  "GET /api/v1/games/console/{console_id}",
];

/** Additions under /api/v1 beyond the spec (docs/decisions.md, "beyond the interface"). */
const BEYOND_SPEC = ["GET /api/v1/intelligence/{id}/history"];

const operationsOf = (document: ReturnType<typeof buildOpenApiDocument>) =>
  Object.entries(document.paths).flatMap(([path, item]) =>
    Object.keys(item as object).map((method) => `${method.toUpperCase()} ${path}`),
  );

describe("OpenAPI document", () => {
  const document = buildOpenApiDocument();

  it("is accepted by an OpenAPI validator", async () => {
    await expect(SwaggerParser.validate(structuredClone(document) as never)).resolves.toBeDefined();
  });

  it("lists every endpoint of the spec and nothing else", () => {
    expect(operationsOf(document).sort()).toEqual([...SPEC_ENDPOINTS, ...BEYOND_SPEC].sort());
    expect(listRoutes()).toHaveLength(SPEC_ENDPOINTS.length + BEYOND_SPEC.length);
  });

  it("documents bearer auth, rate-limit headers, and the batch element shape", () => {
    expect(document.components?.securitySchemes?.bearerAuth).toMatchObject({
      type: "http",
      scheme: "bearer",
    });
    const batch = document.paths["/api/v1/intelligence/batch"].post;
    expect(Object.keys(batch.responses)).toEqual(expect.arrayContaining(["200", "207", "422", "429"]));
    expect(batch.responses["429"].headers).toHaveProperty("retry-after");
    expect(batch.responses["200"].headers).toHaveProperty("x-ratelimit-remaining");
    const items = batch.requestBody.content["application/json"].schema.properties.requests.items;
    expect(JSON.stringify(items)).toContain("game_id");
  });

  it("gives every operation a scope decision and an example request", () => {
    for (const item of Object.values(document.paths)) {
      for (const operation of Object.values(item as Record<string, Record<string, unknown>>)) {
        expect(operation).toHaveProperty("x-required-scope");
        expect(operation["x-codeSamples"]).toHaveLength(1);
      }
    }
  });
});
