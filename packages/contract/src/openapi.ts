import type { z } from "zod";
import { CODE_TO_STATUS, ErrorBodySchema, type ErrorCode } from "./common/errors.js";
import { listRoutes } from "./contract.js";
import { exampleResponses, examples } from "./examples.js";
import * as api from "./index.js";
import { createErrorComponents, errorBodySchema, HEADER_COMPONENTS, headersFor } from "./openapi-errors.js";
import { createParameterRegistry, parameterExamples, parametersOf, sampleOf } from "./openapi-parameters.js";
import { createSchemaConverter, type JsonSchema, pascal } from "./openapi-schema.js";
import { API_DESCRIPTION, FIELDS, TAGS, tagOf } from "./openapi-text.js";
import { errorCodesOf } from "./route-errors.js";

/**
 * The OpenAPI 3.1 document of the contract, built from the routes themselves: schemas are JSON
 * Schema 2020-12 (`openapi-schema.ts`), shared ones under `components`, each operation lists only
 * the statuses its route can give (`route-errors.ts`), and examples come from `examples.ts`.
 */

/** Exported contract schemas that stay inline: scalar ids read better as plain integers. */
const INLINE = new Set(["IdSchema", "JsonIdSchema"]);

/** Every exported `…Schema` of the contract becomes a component named without the suffix. */
const componentNames = (): Map<z.ZodTypeAny, string> => {
  const names = new Map<z.ZodTypeAny, string>();
  for (const [exported, value] of Object.entries(api)) {
    if (!exported.endsWith("Schema") || INLINE.has(exported) || !isZod(value)) continue;
    if (/(Query|Headers)Schema$/.test(exported)) continue;
    if (!names.has(value)) names.set(value, exported.slice(0, -"Schema".length));
  }
  return names;
};

const isZod = (value: unknown): value is z.ZodTypeAny =>
  typeof value === "object" && value !== null && "_def" in value && "safeParse" in value;

/** Component examples: `examples.liquidityRow` illustrates the `LiquidityRow` component. */
const componentExample = (name: string): unknown => {
  const key = name.charAt(0).toLowerCase() + name.slice(1);
  const value = (examples as Record<string, unknown>)[key];
  if (value !== undefined) return value;
  if (name === "LiquidityProfile") return exampleResponses["intelligence.get"].data;
  return undefined;
};

/** The OpenAPI 3.1 document of the whole contract. */
export const buildOpenApiDocument = (version = "1.0.0") => {
  const names = componentNames();
  const overrides = new Map<z.ZodTypeAny, () => JsonSchema>([[ErrorBodySchema, errorBodySchema]]);
  const describe = (path: string) => FIELDS[path];
  const schemas = createSchemaConverter({ names, overrides, describe, example: componentExample });
  const inline = createSchemaConverter({ names: new Map(), describe });

  const errors = createErrorComponents(schemas, names);

  const parameters = createParameterRegistry();
  const routes = listRoutes();
  const examplesOfParameters = parameterExamples(routes.map((r) => r.route));

  const paths: Record<string, Record<string, unknown>> = {};
  const usedTags = new Set<string>();
  for (const { name, route } of routes) {
    const [group = name, key = name] = name.split(".");
    const operationName = `${pascal(group)}${pascal(key)}`;
    const batch = route.metadata.element !== undefined;
    const sample = sampleOf(route);
    const example = (exampleResponses as Record<string, unknown>)[name];

    const responses: Record<string, unknown> = {};
    const successSchemas = new Map<string, string>();
    for (const [status, schema] of Object.entries(route.responses)) {
      if (Number(status) >= 300) continue;
      const body = schema as z.ZodTypeAny;
      const key = JSON.stringify(inline.toSchema(body, "output"));
      const componentName =
        successSchemas.get(key) ?? `${operationName}${status === "200" ? "" : status}Response`;
      successSchemas.set(key, componentName);
      if (!names.has(body)) names.set(body, componentName);
      responses[status] = {
        description:
          status === "207"
            ? "Mixed outcomes: at least one item failed; see each item's status."
            : `${route.summary ?? "OK"}.`,
        headers: headersFor(Number(status), batch),
        content: {
          "application/json": {
            schema: schemas.toSchema(body, "output"),
            ...(status === "200" && example !== undefined ? { example } : {}),
          },
        },
      };
    }
    const byStatus = new Map<number, ErrorCode[]>();
    for (const code of errorCodesOf(route)) {
      const status = CODE_TO_STATUS[code];
      byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
    }
    for (const [status, codes] of [...byStatus].sort(([a], [b]) => a - b)) {
      responses[String(status)] = errors.response(status, codes, batch);
    }

    const tag = tagOf(group);
    usedTags.add(group);
    const operationId = operationName.charAt(0).toLowerCase() + operationName.slice(1);
    const operation: Record<string, unknown> = {
      operationId,
      tags: [tag],
      summary: route.summary,
      ...(route.description ? { description: route.description } : {}),
      security: [{ bearerAuth: [] }],
      "x-required-scope": route.metadata.scope,
      parameters: parametersOf(route, inline, examplesOfParameters).map((p) =>
        parameters.add(p, operationId),
      ),
      responses,
    };
    if (batch && route.metadata.element) {
      operation.requestBody = {
        required: true,
        content: {
          "application/json": {
            schema: {
              type: "object",
              required: ["requests"],
              properties: {
                requests: {
                  type: "array",
                  minItems: 1,
                  description:
                    "One element per game, at most your plan's `max_batch_size`; each is one usage unit.",
                  items: schemas.toSchema(route.metadata.element, "input"),
                },
              },
            },
            ...(sample.body !== undefined ? { example: sample.body } : {}),
          },
        },
      };
    }
    if (sample.curl) operation["x-codeSamples"] = [{ lang: "shell", label: "curl", source: sample.curl }];
    const path = route.path.replace(/:([a-z_]+)/g, "{$1}");
    paths[path] = { ...paths[path], [route.method.toLowerCase()]: operation };
  }

  return {
    openapi: "3.1.0",
    info: { title: "Game Market Intelligence API", version, description: API_DESCRIPTION },
    servers: [{ url: "/", description: "This server" }],
    tags: [...usedTags].map((group) => ({
      name: tagOf(group),
      ...(TAGS[group] ? { description: TAGS[group].description } : {}),
    })),
    paths,
    components: {
      schemas: { ...schemas.components(), ...errors.schemas },
      parameters: parameters.components,
      responses: errors.responses,
      headers: HEADER_COMPONENTS,
      securitySchemes: {
        bearerAuth: { type: "http", scheme: "bearer", description: "An API key (`gmi_live_…`)." },
      },
    },
  };
};

export type OpenApiDocument = ReturnType<typeof buildOpenApiDocument>;
