import type { z } from "zod";

/** A JSON Schema 2020-12 object, as OpenAPI 3.1 embeds it. */
export type JsonSchema = { [keyword: string]: unknown };

/**
 * Which side of a schema to describe: requests document what a client may send (defaults make a
 * field optional), responses what the server sends.
 */
export type Side = "input" | "output";

export type SchemaConverterOptions = {
  /** Schemas written once under `components/schemas` and referenced by `$ref` wherever they occur. */
  names: Map<z.ZodTypeAny, string>;
  /** Hand-written JSON Schemas for the few zod schemas whose refinements carry the meaning. */
  overrides?: Map<z.ZodTypeAny, (convert: (schema: z.ZodTypeAny) => JsonSchema) => JsonSchema>;
  /** Text for a component or one of its properties (`"LiquidityProfile"`, `"LiquidityProfile.rank"`). */
  describe?: (path: string) => string | undefined;
  /** An example for a component, taken from the contract's examples. */
  example?: (name: string) => unknown;
};

type Def = { typeName: string; description?: string; [key: string]: unknown };
type Check = { kind: string; value?: unknown; inclusive?: boolean; regex?: RegExp };

const defOf = (schema: z.ZodTypeAny) => schema._def as Def;

/** `quota_exceeded` → `QuotaExceeded`: component names. */
export const pascal = (text: string) =>
  text
    .split(/[^a-zA-Z0-9]+/)
    .filter(Boolean)
    .map((word) => word.charAt(0).toUpperCase() + word.slice(1))
    .join("");

/** A reference to a component of the document. */
export const ref = (kind: "schemas" | "responses" | "headers" | "parameters", name: string) => ({
  $ref: `#/components/${kind}/${name}`,
});

/** Adds `null` to a schema: a type array where there is one type, `anyOf` otherwise. */
export const orNull = (schema: JsonSchema): JsonSchema => {
  if (typeof schema.type === "string" && !("$ref" in schema)) {
    const out: JsonSchema = { ...schema, type: [schema.type, "null"] };
    if (Array.isArray(schema.enum)) out.enum = [...schema.enum, null];
    if ("const" in schema) {
      delete out.const;
      out.enum = [schema.const, null];
    }
    return out;
  }
  const { description, ...rest } = schema;
  return { ...(description ? { description } : {}), anyOf: [rest, { type: "null" }] };
};

const stringSchema = (def: Def): JsonSchema => {
  const out: JsonSchema = { type: "string" };
  for (const check of (def.checks ?? []) as Check[]) {
    if (check.kind === "min") out.minLength = check.value;
    else if (check.kind === "max") out.maxLength = check.value;
    else if (check.kind === "length") {
      out.minLength = check.value;
      out.maxLength = check.value;
    } else if (check.kind === "regex" && check.regex) out.pattern = check.regex.source;
    else if (check.kind === "uuid") out.format = "uuid";
    else if (check.kind === "url") out.format = "uri";
    else if (check.kind === "email") out.format = "email";
    else if (check.kind === "datetime") out.format = "date-time";
    else throw new Error(`OpenAPI: unsupported string check ${check.kind}`);
  }
  return out;
};

/** The largest 32-bit integer: the bound of every id and page number, a storage limit, not a rule. */
const INT32_MAX = 2_147_483_647;

const numberSchema = (def: Def): JsonSchema => {
  const checks = (def.checks ?? []) as Check[];
  const integer = checks.some((c) => c.kind === "int");
  const out: JsonSchema = { type: integer ? "integer" : "number" };
  for (const check of checks) {
    if (check.kind === "int") continue;
    // Said as `format: int32`, which renderers show as a word, not as "max: 2147483647" on every id.
    if (integer && check.kind === "max" && check.inclusive && check.value === INT32_MAX) out.format = "int32";
    else if (check.kind === "min") out[check.inclusive ? "minimum" : "exclusiveMinimum"] = check.value;
    else if (check.kind === "max") out[check.inclusive ? "maximum" : "exclusiveMaximum"] = check.value;
    else if (check.kind === "multipleOf") out.multipleOf = check.value;
    else throw new Error(`OpenAPI: unsupported number check ${check.kind}`);
  }
  return out;
};

const literalType = (value: unknown) =>
  value === null ? "null" : typeof value === "number" && Number.isInteger(value) ? "integer" : typeof value;

/**
 * zod (v3) to JSON Schema 2020-12, for the OpenAPI 3.1 document. Nullable is a type array
 * (`["string", "null"]`), never OpenAPI 3.0's `nullable: true`; schemas listed in `names` become
 * `components/schemas` entries referenced by `$ref`. A zod type it does not know is an error, so
 * nothing is silently documented as "anything".
 */
export const createSchemaConverter = (options: SchemaConverterOptions) => {
  const components: Record<string, JsonSchema> = {};
  const inProgress = new Set<string>();

  /** `owner`: the dotted place of an unnamed object (`AccountRecord.plan`), for field texts. */
  const convert = (schema: z.ZodTypeAny, side: Side, atRoot = false, owner?: string): JsonSchema => {
    const name = options.names.get(schema);
    if (name && !atRoot) {
      const key = side === "input" && hasInputDifference(schema) ? `${name}Input` : name;
      if (!(key in components) && !inProgress.has(key)) {
        inProgress.add(key);
        const body = convert(schema, side, true);
        const description = options.describe?.(name);
        const example = options.example?.(name);
        components[key] = {
          ...(description && !body.description ? { description } : {}),
          ...body,
          ...(example !== undefined ? { examples: [example] } : {}),
        };
        inProgress.delete(key);
      }
      return { $ref: `#/components/schemas/${key}` };
    }
    const override = options.overrides?.get(schema);
    const converted = override
      ? override((inner) => convert(inner, side))
      : convertDef(schema, side, name ?? owner);
    const description = defOf(schema).description;
    return description && !converted.description ? { description, ...converted } : converted;
  };

  const convertDef = (schema: z.ZodTypeAny, side: Side, owner: string | undefined): JsonSchema => {
    const def = defOf(schema);
    switch (def.typeName) {
      case "ZodString":
        return stringSchema(def);
      case "ZodNumber":
        return numberSchema(def);
      case "ZodBoolean":
        return { type: "boolean" };
      case "ZodLiteral":
        return { type: literalType(def.value), const: def.value };
      case "ZodEnum":
        return { type: "string", enum: [...(def.values as string[])] };
      case "ZodNull":
        return { type: "null" };
      case "ZodAny":
      case "ZodUnknown":
        return {};
      case "ZodNullable":
        return orNull(convert(def.innerType as z.ZodTypeAny, side, false, owner));
      case "ZodOptional":
      case "ZodReadonly":
      case "ZodBranded":
      case "ZodCatch":
        return convert((def.innerType ?? def.type) as z.ZodTypeAny, side, false, owner);
      case "ZodDefault": {
        const inner = convert(def.innerType as z.ZodTypeAny, side, false, owner);
        return side === "input" ? { ...inner, default: (def.defaultValue as () => unknown)() } : inner;
      }
      case "ZodEffects": {
        // A refinement's meaning is in the text (`describe`); its shape is the inner schema's.
        const inner = def.schema as z.ZodTypeAny;
        return options.names.has(inner) ? convert(inner, side) : convertDef(inner, side, owner);
      }
      case "ZodPipeline":
        return convert((side === "input" ? def.in : def.out) as z.ZodTypeAny, side);
      case "ZodArray": {
        const out: JsonSchema = { type: "array", items: convert(def.type as z.ZodTypeAny, side) };
        const exact = def.exactLength as { value: number } | null;
        const min = (def.minLength as { value: number } | null) ?? exact;
        const max = (def.maxLength as { value: number } | null) ?? exact;
        if (min) out.minItems = min.value;
        if (max) out.maxItems = max.value;
        return out;
      }
      case "ZodTuple":
        return {
          type: "array",
          prefixItems: (def.items as z.ZodTypeAny[]).map((item) => convert(item, side)),
          minItems: (def.items as unknown[]).length,
          maxItems: (def.items as unknown[]).length,
        };
      case "ZodRecord":
        return { type: "object", additionalProperties: convert(def.valueType as z.ZodTypeAny, side) };
      case "ZodUnion":
        return { anyOf: (def.options as z.ZodTypeAny[]).map((option) => convert(option, side)) };
      case "ZodDiscriminatedUnion":
        return { oneOf: (def.options as z.ZodTypeAny[]).map((option) => convert(option, side)) };
      case "ZodIntersection":
        return { allOf: [convert(def.left as z.ZodTypeAny, side), convert(def.right as z.ZodTypeAny, side)] };
      case "ZodObject":
        return objectSchema(schema as z.AnyZodObject, side, owner);
      default:
        throw new Error(`OpenAPI: unsupported zod type ${def.typeName}`);
    }
  };

  const objectSchema = (schema: z.AnyZodObject, side: Side, owner: string | undefined): JsonSchema => {
    const properties: Record<string, JsonSchema> = {};
    const required: string[] = [];
    for (const [key, field] of Object.entries(schema.shape as Record<string, z.ZodTypeAny>)) {
      const converted = convert(field, side, false, owner ? `${owner}.${key}` : undefined);
      const description = owner ? options.describe?.(`${owner}.${key}`) : undefined;
      properties[key] = description ? withDescription(converted, description) : converted;
      if (!isOptionalOn(field, side)) required.push(key);
    }
    return { type: "object", ...(required.length ? { required } : {}), properties };
  };

  return {
    /** The schema of `schema` (a `$ref` when it is a named component). */
    toSchema: (schema: z.ZodTypeAny, side: Side) => convert(schema, side),
    /** The JSON Schema of each field of an object's shape, for parameters. */
    propertiesOf: (shape: z.ZodRawShape, side: Side) =>
      Object.entries(shape).map(([key, field]) => ({
        name: key,
        schema: convert(field, side),
        required: !isOptionalOn(field, side),
        description: defOf(field).description,
      })),
    components: () => components,
  };
};

/** A `$ref` cannot carry siblings in every tool; wrap it so the description shows. */
const withDescription = (schema: JsonSchema, description: string): JsonSchema =>
  "$ref" in schema ? { description, allOf: [schema] } : { ...schema, description };

const isOptionalOn = (schema: z.ZodTypeAny, side: Side): boolean => {
  const def = defOf(schema);
  if (def.typeName === "ZodOptional") return true;
  if (def.typeName === "ZodDefault") return side === "input";
  return schema.isOptional();
};

/** Whether a schema reads differently as input (a default somewhere inside makes a field optional). */
const hasInputDifference = (schema: z.ZodTypeAny, seen = new Set<z.ZodTypeAny>()): boolean => {
  if (seen.has(schema)) return false;
  seen.add(schema);
  const def = defOf(schema);
  if (def.typeName === "ZodDefault") return true;
  const children: unknown[] = [
    def.innerType,
    def.schema,
    def.type,
    def.valueType,
    def.left,
    def.right,
    ...((def.options as unknown[]) ?? []),
    ...(def.typeName === "ZodObject" ? Object.values((schema as z.AnyZodObject).shape) : []),
  ];
  return children.some(
    (child) => child !== undefined && isZod(child) && hasInputDifference(child as z.ZodTypeAny, seen),
  );
};

const isZod = (value: unknown): boolean =>
  typeof value === "object" && value !== null && "_def" in value && "safeParse" in value;
