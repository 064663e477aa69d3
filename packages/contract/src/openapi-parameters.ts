import type { z } from "zod";
import { HEADERS } from "./common/headers.js";
import type { ContractRoute } from "./contract.js";
import { exampleRequests } from "./examples.js";
import type { createSchemaConverter, JsonSchema } from "./openapi-schema.js";
import { PARAMETERS, sortDescription } from "./openapi-text.js";
import { shapeOf } from "./route-errors.js";

/** Query, path and header parameters of a route, with texts that teach and examples from the curl samples. */
export const parametersOf = (
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
export const parameterExamples = (routes: ContractRoute[]) => {
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
export const sampleOf = (route: ContractRoute) => {
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

/** Parameters shared by several operations are written once; a variant of a name gets a suffix. */
export const createParameterRegistry = () => {
  const components: Record<string, unknown> = {};
  const parameterNames = new Map<string, string>();
  const add = (parameter: Record<string, unknown>, operationId: string) => {
    const key = JSON.stringify(parameter);
    let name = parameterNames.get(key);
    if (!name) {
      const base = `${parameter.in}.${parameter.name}`;
      name = base in components ? `${base}.${operationId}` : base;
      components[name] = parameter;
      parameterNames.set(key, name);
    }
    return { $ref: `#/components/parameters/${name}` };
  };
  return { components, add };
};
