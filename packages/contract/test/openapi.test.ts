import SwaggerParser from "@apidevtools/swagger-parser";
import { Ajv2020 } from "ajv/dist/2020.js";
import addFormats from "ajv-formats";
import { describe, expect, it } from "vitest";
import { errorStatusesOf, exampleErrors, exampleResponses, listRoutes } from "../src/index.js";
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

type Document = ReturnType<typeof buildOpenApiDocument>;
type Operation = {
  operationId: string;
  tags: string[];
  parameters: Array<{ $ref: string }>;
  responses: Record<
    string,
    { $ref?: string; content?: Record<string, { schema: unknown; example?: unknown }> }
  >;
  requestBody?: { content: Record<string, { schema: unknown; example?: unknown }> };
};

const operationsOf = (document: Document) =>
  Object.entries(document.paths).flatMap(([path, item]) =>
    Object.entries(item as Record<string, Operation>).map(([method, operation]) => ({
      key: `${method.toUpperCase()} ${path}`,
      operation,
    })),
  );

const operationAt = (document: Document, method: string, path: string) => {
  const operation = document.paths[path]?.[method];
  if (!operation) throw new Error(`no ${method} ${path}`);
  return operation as Operation;
};

/** Every value under `node` whose key is `key`, at any depth. */
const collect = (node: unknown, key: string, out: unknown[] = []): unknown[] => {
  if (Array.isArray(node)) for (const child of node) collect(child, key, out);
  else if (node && typeof node === "object") {
    for (const [k, v] of Object.entries(node)) {
      if (k === key) out.push(v);
      collect(v, key, out);
    }
  }
  return out;
};

/**
 * A strict JSON Schema 2020-12 validator holding the document's component schemas (as `$defs` of
 * one schema of their own), so that `$ref`s into the document resolve.
 */
const validatorFor = (document: Document) => {
  const ajv = new Ajv2020({ strict: true, allErrors: true });
  addFormats.default(ajv);
  const rewrite = (schema: unknown) =>
    JSON.parse(JSON.stringify(schema).replaceAll('"#/components/schemas/', '"components#/$defs/'));
  ajv.addSchema({ $id: "components", $defs: rewrite(document.components.schemas) });
  return (schema: unknown) => ajv.compile(rewrite(schema));
};

const component = (document: Document, pointer: string) =>
  pointer
    .replace(/^#\//, "")
    .split("/")
    .reduce<unknown>((node, part) => (node as Record<string, unknown>)[part], document);

describe("OpenAPI document", () => {
  const document = buildOpenApiDocument();
  const operations = operationsOf(document);
  const compile = validatorFor(document);

  it("is a valid OpenAPI 3.1 document", async () => {
    expect(document.openapi).toBe("3.1.0");
    await expect(SwaggerParser.validate(structuredClone(document) as never)).resolves.toBeDefined();
  });

  it("writes nullable fields as JSON Schema type arrays, never OpenAPI 3.0's nullable", () => {
    const text = JSON.stringify(document);
    expect(text).not.toContain('"nullable"');
    const profile = component(document, "#/components/schemas/LiquidityProfile") as {
      properties: Record<string, { type: unknown }>;
    };
    expect(profile.properties.rank?.type).toEqual(["integer", "null"]);
    const momentum = component(document, "#/components/schemas/Momentum") as {
      properties: Record<string, { type: unknown }>;
    };
    expect(momentum.properties.value?.type).toEqual(["number", "null"]);
  });

  it("compiles every schema with a strict JSON Schema 2020-12 validator", () => {
    for (const [name, schema] of Object.entries(document.components.schemas)) {
      expect(() => compile(schema), name).not.toThrow();
    }
  });

  it("shares schemas through components: rows are written once and referenced", () => {
    const refs = collect(document.paths, "$ref").concat(collect(document.components, "$ref"));
    expect(refs).toContain("#/components/schemas/LiquidityRow");
    expect(refs).toContain("#/components/schemas/GameRecord");
    // Every reference resolves.
    for (const pointer of new Set(refs as string[]))
      expect(component(document, pointer), pointer).toBeDefined();
    // A row's field names appear once in the whole document's schemas (its component).
    const text = JSON.stringify({ paths: document.paths, components: document.components });
    expect(text.split('"price_accessibility":{').length - 1).toBe(3); // LiquidityRow, -Profile, BatchLiquidityRow
    expect(JSON.stringify(document).length).toBeLessThan(150_000);
  });

  it("lists every endpoint of the spec and nothing else", () => {
    expect(operations.map((o) => o.key).sort()).toEqual([...SPEC_ENDPOINTS, ...BEYOND_SPEC].sort());
    expect(listRoutes()).toHaveLength(SPEC_ENDPOINTS.length + BEYOND_SPEC.length);
  });

  it("lists on each operation exactly the statuses its route can give", () => {
    for (const { name, route } of listRoutes()) {
      const path = route.path.replace(/:([a-z_]+)/g, "{$1}");
      const operation = operations.find((o) => o.key === `${route.method} ${path}`)?.operation;
      const success = route.method === "POST" ? ["200", "207"] : ["200"];
      const expected = [...success, ...errorStatusesOf(route).map(String)].sort();
      expect(Object.keys(operation?.responses ?? {}).sort(), name).toEqual(expected);
      expect(Object.keys(route.responses).sort(), name).toEqual(expected);
    }
    const get = operationAt(document, "get", "/api/v1/intelligence");
    for (const status of ["405", "409", "413", "415", "501"])
      expect(get.responses).not.toHaveProperty(status);
    const byId = operationAt(document, "get", "/api/v1/games/game/{id}");
    expect(byId.responses).toHaveProperty("404");
    const bySlug = operationAt(document, "get", "/api/v1/games/slug/{slug}");
    expect(bySlug.responses).not.toHaveProperty("404");
    const me = operationAt(document, "get", "/api/v1/me");
    for (const status of ["402", "404", "429"]) expect(me.responses).not.toHaveProperty(status);
    const batch = operationAt(document, "post", "/api/v1/intelligence/batch");
    expect(Object.keys(batch.responses)).toEqual(expect.arrayContaining(["200", "207", "409", "413", "415"]));
  });

  it("shows real examples that satisfy both the contract and the document's schemas", () => {
    for (const { name, route } of listRoutes()) {
      const example = (exampleResponses as Record<string, unknown>)[name];
      expect(example, `${name} has an example`).toBeDefined();
      const parsed = (
        route.responses as Record<string, { safeParse(v: unknown): { success: boolean } }>
      )[200];
      expect(parsed?.safeParse(example).success, name).toBe(true);
    }
    for (const { key, operation } of operations) {
      for (const [status, response] of Object.entries(operation.responses)) {
        const resolved = (
          response.$ref ? component(document, response.$ref) : response
        ) as Operation["responses"][string];
        const media = resolved.content?.["application/json"] as
          | { schema: unknown; example?: unknown; examples?: Record<string, { value: unknown }> }
          | undefined;
        const values = [
          ...(media?.example !== undefined ? [media.example] : []),
          ...Object.values(media?.examples ?? {}).map((e) => e.value),
        ];
        if (status === "200") expect(values, key).toHaveLength(1);
        const validate = compile(media?.schema);
        for (const value of values)
          expect(validate(value), `${key} ${status} ${JSON.stringify(validate.errors)}`).toBe(true);
      }
      const body = operation.requestBody?.content["application/json"];
      if (body) expect(compile(body.schema)(body.example), key).toBe(true);
    }
    // No generator placeholders.
    const shown = JSON.stringify(collect(document, "example"));
    expect(shown).not.toContain('"string"');
    expect(shown).toContain('"rank":null');
    for (const error of Object.values(exampleErrors)) expect(error.message).not.toBe("string");
  });

  it("describes every parameter in words of its own, with readable tags", () => {
    const parameters = Object.values(document.components.parameters) as Array<{
      name: string;
      description: string;
    }>;
    expect(parameters.length).toBeGreaterThan(5);
    for (const parameter of parameters) {
      expect(parameter.description.length, parameter.name).toBeGreaterThan(30);
      expect(parameter.description, parameter.name).not.toMatch(/^(Integer numbers|String)\.?$/);
    }
    const tags = document.tags.map((t) => t.name);
    expect(tags).toEqual(["Intelligence", "Search demand", "Games", "Consoles", "Account", "Signals"]);
    for (const { operation } of operations) expect(tags).toContain(operation.tags[0]);
  });

  it("documents bearer auth, rate-limit headers, and the batch element shape", () => {
    expect(document.components.securitySchemes.bearerAuth).toMatchObject({ type: "http", scheme: "bearer" });
    const batch = operationAt(document, "post", "/api/v1/intelligence/batch") as unknown as {
      responses: Record<string, { $ref?: string; headers?: Record<string, unknown> }>;
      requestBody: { content: Record<string, { schema: { properties: { requests: { items: unknown } } } }> };
    };
    expect(batch.responses["200"]?.headers).toHaveProperty("x-ratelimit-remaining");
    const tooMany = component(document, batch.responses["429"]?.$ref ?? "") as { headers: object };
    expect(tooMany.headers).toHaveProperty("retry-after");
    const items = batch.requestBody.content["application/json"]?.schema.properties.requests.items;
    expect(JSON.stringify(component(document, (items as { $ref: string }).$ref))).toContain("game_id");
  });

  it("says int32 for ids and pages instead of a maximum of 2147483647, and keeps real bounds", () => {
    const text = JSON.stringify(document);
    expect(text).not.toContain("2147483647");
    const id = document.components.parameters as Record<string, { name: string; schema: object }>;
    const path = Object.values(id).find((p) => p.name === "id");
    expect(path?.schema).toMatchObject({ type: "integer", format: "int32", minimum: 1 });
    // A real bound stays a bound: a score is at most 100.
    const profile = component(document, "#/components/schemas/LiquidityProfile") as {
      properties: Record<string, object>;
    };
    expect(profile.properties.liquidity_score).toMatchObject({ maximum: 100 });
  });

  it("writes the plan limits with thousands separators", () => {
    const limits = document.info.description.slice(document.info.description.indexOf("## Limits"));
    expect(limits).toContain("| Limit | Free | Starter | Pro | Enterprise |");
    expect(limits).toContain("| Requests per day | 1,000 | 20,000 | 200,000 | 2,000,000 |");
    expect(limits).toContain("| Monthly quota | 10,000 | 250,000 | 2,500,000 | unmetered |");
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
