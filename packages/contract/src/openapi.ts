import type { z } from "zod";
import {
  CODE_TO_STATUS,
  ERROR_CODES,
  ErrorBodySchema,
  type ErrorCode,
  ErrorDetailsSchemas,
} from "./common/errors.js";
import { HEADERS } from "./common/headers.js";
import { type ContractRoute, listRoutes } from "./contract.js";
import { exampleErrors, exampleRequests, exampleResponses, examples } from "./examples.js";
import * as api from "./index.js";
import { createSchemaConverter, type JsonSchema } from "./openapi-schema.js";
import { API_DESCRIPTION, FIELDS, PARAMETERS, sortDescription, TAGS, tagOf } from "./openapi-text.js";
import { errorCodesOf, shapeOf } from "./route-errors.js";

/**
 * The OpenAPI 3.1 document of the contract, built from the routes themselves: schemas are JSON
 * Schema 2020-12 (`openapi-schema.ts`), shared ones under `components`, each operation lists only
 * the statuses its route can give (`route-errors.ts`), and examples come from `examples.ts`.
 */

const pascal = (text: string) =>
  text
    .split(/[^a-zA-Z0-9]+/)
    .filter(Boolean)
    .map((word) => word.charAt(0).toUpperCase() + word.slice(1))
    .join("");

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

const ref = (kind: "schemas" | "responses" | "headers", name: string) => ({
  $ref: `#/components/${kind}/${name}`,
});

const integerHeader = (description: string, required = false) => ({
  description,
  required,
  schema: { type: "integer", minimum: 0 },
});

const HEADER_COMPONENTS = {
  RequestId: {
    description: "UUID of this request in the server logs; quote it when reporting a problem.",
    required: true,
    schema: { type: "string", format: "uuid" },
  },
  RateLimitLimit: integerHeader("Requests per minute allowed by your plan."),
  RateLimitRemaining: integerHeader("Requests left in the current one-minute window."),
  RateLimitReset: integerHeader("Seconds until the one-minute window resets."),
  RetryAfter: integerHeader("Seconds to wait before retrying.", true),
  IdempotencyReplayed: {
    description: "`true` when this is the stored answer of an earlier request with the same Idempotency-Key.",
    schema: { type: "string", const: "true" },
  },
};

const rateLimitHeaders = {
  [HEADERS.rateLimitLimit]: ref("headers", "RateLimitLimit"),
  [HEADERS.rateLimitRemaining]: ref("headers", "RateLimitRemaining"),
  [HEADERS.rateLimitReset]: ref("headers", "RateLimitReset"),
};

/** Headers of an answer with this status: the request id always, the limits once the key is known. */
const headersFor = (status: number, batch: boolean) => ({
  [HEADERS.requestId]: ref("headers", "RequestId"),
  ...(status === 401 ? {} : rateLimitHeaders),
  ...([402, 409, 429].includes(status) ? { [HEADERS.retryAfter]: ref("headers", "RetryAfter") } : {}),
  ...(status === 503 ? { [HEADERS.retryAfter]: { ...HEADER_COMPONENTS.RetryAfter, required: false } } : {}),
  ...(batch && status < 300 ? { [HEADERS.idempotencyReplayed]: ref("headers", "IdempotencyReplayed") } : {}),
});

const STATUS_TEXT: Record<number, string> = {
  401: "The API key is missing, malformed, unknown, revoked or expired.",
  402: "The monthly quota is used up (plans without overage).",
  403: "The account is suspended, or the key lacks the route's scope.",
  404: "No enabled game with this id.",
  409: "A request with this Idempotency-Key is still in flight; retry after `Retry-After` seconds.",
  413: "The body is too large.",
  415: "The body is not `application/json`.",
  422: "A parameter or the body is invalid; `details` names every bad field.",
  429: "A rate window (minute or day) is exhausted; retry after `Retry-After` seconds.",
  500: "An unexpected error; quote `details.request_id`.",
  503: "Temporarily unavailable (database unreachable, or analytics not computed yet); retry.",
};

const errorSchemaName = (code: ErrorCode) => `${pascal(code)}Error`;

/** The response component of one status limited to some codes, e.g. a 403 without scope checks. */
const errorResponseName = (codes: ErrorCode[]) => codes.map(pascal).join("Or");

/** Query, path and header parameters of a route, with texts that teach and examples from the curl samples. */
const parametersOf = (
  route: ContractRoute,
  convert: ReturnType<typeof createSchemaConverter>,
  examples: Map<string, string>,
) => {
  const own = sampleOf(route);
  /**
   * The first sample's value of this name (one example, so the parameter is shared between
   * operations), else this route's own; never a value outside the schema's enum.
   */
  const exampleOf = (name: string, schema: JsonSchema) => {
    const fits = (value: string | null | undefined): value is string =>
      typeof value === "string" && (!Array.isArray(schema.enum) || schema.enum.includes(value));
    const candidates = [examples.get(name), own.path[name], own.query.get(name)];
    const value = candidates.find(fits);
    return value === undefined ? {} : { example: schema.type === "integer" ? Number(value) : value };
  };
  const out: Record<string, unknown>[] = [];
  const fieldsOf = (schema: unknown) => convert.propertiesOf(shapeOf(schema) as z.ZodRawShape, "input");
  for (const field of fieldsOf(route.pathParams)) {
    out.push({
      name: field.name,
      in: "path",
      required: true,
      description: field.description ?? PARAMETERS[`path:${field.name}`],
      schema: field.schema,
      ...exampleOf(field.name, field.schema),
    });
  }
  for (const field of fieldsOf(route.query)) {
    const values = field.schema.enum as string[] | undefined;
    const description =
      field.name === "sort" && values
        ? sortDescription(values, field.schema.default as string | undefined)
        : (field.description ?? PARAMETERS[field.name]);
    out.push({
      name: field.name,
      in: "query",
      required: field.required,
      description,
      schema: field.schema,
      ...exampleOf(field.name, field.schema),
    });
  }
  for (const field of fieldsOf(route.headers)) {
    if (field.name === HEADERS.authorization) continue; // the security scheme
    out.push({
      name: field.name.replace(/(^|-)([a-z])/g, (_, dash: string, c: string) => dash + c.toUpperCase()),
      in: "header",
      required: field.required,
      description: field.description ?? PARAMETERS[`header:${field.name}`],
      schema: field.schema,
      example: "4b0f7c1e-1f0e-4d7a-9c55-2f5b2b0f9a11",
    });
  }
  for (const parameter of out) {
    if (!parameter.description) throw new Error(`OpenAPI: no description for parameter ${parameter.name}`);
  }
  return out;
};

/** Example value of each parameter: the first curl sample that sets it. */
const parameterExamples = (routes: ContractRoute[]) => {
  const out = new Map<string, string>();
  for (const route of routes) {
    const sample = sampleOf(route);
    for (const [name, value] of [...Object.entries(sample.path), ...sample.query.entries()]) {
      if (!out.has(name)) out.set(name, value);
    }
  }
  return out;
};

/** The path values, query and body of a route's curl example. */
const sampleOf = (route: ContractRoute) => {
  const curl = (exampleRequests as Record<string, string>)[route.path];
  const empty = {
    curl,
    path: {} as Record<string, string>,
    query: new URLSearchParams(),
    body: undefined as unknown,
  };
  if (!curl) return empty;
  const url = new URL(/"(https?:\/\/[^"]+)"/.exec(curl)?.[1] ?? "https://x/");
  const names = [...route.path.matchAll(/:([a-z_]+)/g)].map((m) => m[1] ?? "");
  const pattern = new RegExp(`^${route.path.replace(/:([a-z_]+)/g, "([^/]+)")}$`);
  const values = pattern.exec(url.pathname)?.slice(1) ?? [];
  const path = Object.fromEntries(names.map((name, i) => [name, decodeURIComponent(values[i] ?? "")]));
  const body = /-d '([^']*)'/.exec(curl)?.[1];
  return { curl, path, query: url.searchParams, body: body ? JSON.parse(body) : undefined };
};

/** The OpenAPI 3.1 document of the whole contract. */
export const buildOpenApiDocument = (version = "1.0.0") => {
  const names = componentNames();
  const overrides = new Map<z.ZodTypeAny, () => JsonSchema>([
    [ErrorBodySchema, () => ({ oneOf: ERROR_CODES.map((code) => ref("schemas", errorSchemaName(code))) })],
  ]);
  const describe = (path: string) => FIELDS[path];
  const schemas = createSchemaConverter({ names, overrides, describe, example: componentExample });
  const inline = createSchemaConverter({ names: new Map(), describe });

  // One schema per error code, its `details` typed; then one response per (status, codes) in use.
  const errorSchemas: Record<string, JsonSchema> = {};
  for (const code of ERROR_CODES) {
    const details = (ErrorDetailsSchemas as Record<string, z.ZodTypeAny>)[code];
    if (details && !names.has(details)) names.set(details, `${pascal(code)}Details`);
    errorSchemas[errorSchemaName(code)] = {
      type: "object",
      required: ["code", "message"],
      properties: {
        code: { type: "string", const: code },
        message: { type: "string", minLength: 1, description: "For people; branch on `code`." },
        ...(details ? { details: schemas.toSchema(details, "output") } : {}),
      },
      examples: [exampleErrors[code]],
    };
  }
  const errorResponses: Record<string, unknown> = {};
  const errorResponse = (status: number, codes: ErrorCode[], batch: boolean) => {
    const name = errorResponseName(codes);
    if (!(name in errorResponses)) {
      const first = codes[0] as ErrorCode;
      errorResponses[name] = {
        description: STATUS_TEXT[status] ?? codes.join(", "),
        headers: headersFor(status, batch),
        content: {
          "application/json": {
            schema: {
              type: "object",
              required: ["error"],
              properties: {
                error:
                  codes.length === 1
                    ? ref("schemas", errorSchemaName(first))
                    : { oneOf: codes.map((code) => ref("schemas", errorSchemaName(code))) },
              },
            },
            ...(codes.length === 1
              ? { example: { error: exampleErrors[first] } }
              : {
                  examples: Object.fromEntries(
                    codes.map((code) => [code, { summary: code, value: { error: exampleErrors[code] } }]),
                  ),
                }),
          },
        },
      };
    }
    return ref("responses", name);
  };

  // Parameters shared by several operations are written once; a variant of a name gets a suffix.
  const parameters: Record<string, unknown> = {};
  const parameterNames = new Map<string, string>();
  const shared = (parameter: Record<string, unknown>, operationId: string) => {
    const key = JSON.stringify(parameter);
    let name = parameterNames.get(key);
    if (!name) {
      const base = `${parameter.in}.${parameter.name}`;
      name = base in parameters ? `${base}.${operationId}` : base;
      parameters[name] = parameter;
      parameterNames.set(key, name);
    }
    return { $ref: `#/components/parameters/${name}` };
  };
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
          status === "207" ? "Mixed outcomes: at least one item failed; see each item's status." : "OK",
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
      responses[String(status)] = errorResponse(status, codes, batch);
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
      parameters: parametersOf(route, inline, examplesOfParameters).map((p) => shared(p, operationId)),
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
      schemas: { ...schemas.components(), ...errorSchemas },
      parameters,
      responses: errorResponses,
      headers: HEADER_COMPONENTS,
      securitySchemes: {
        bearerAuth: { type: "http", scheme: "bearer", description: "An API key (`gmi_live_…`)." },
      },
    },
  };
};

export type OpenApiDocument = ReturnType<typeof buildOpenApiDocument>;
