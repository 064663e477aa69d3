import { Ajv2020, type ValidateFunction } from "ajv/dist/2020.js";
import addFormats from "ajv-formats";

type Json = Record<string, unknown>;
type Response = { statusCode: number; headers: Record<string, unknown>; body: string };
type HeaderObject = { required?: boolean; schema: Json; $ref?: string };
type ResponseObject = {
  headers?: Record<string, HeaderObject>;
  content?: Record<string, { schema: Json }>;
};

/**
 * Objects closed to fields the document does not list: a check of real answers against the
 * document then also catches a field the server sends and the document forgot. (The document
 * itself leaves objects open, so that clients survive a field added later.)
 */
const closed = (node: unknown): unknown => {
  if (Array.isArray(node)) return node.map(closed);
  if (!node || typeof node !== "object") return node;
  const out = Object.fromEntries(Object.entries(node).map(([k, v]) => [k, closed(v)]));
  if ("properties" in out && !("additionalProperties" in out)) out.additionalProperties = false;
  return out;
};

const resolve = <T>(document: Json, node: T | { $ref: string }): T => {
  const pointer = (node as { $ref?: string }).$ref;
  if (!pointer) return node as T;
  return pointer
    .replace(/^#\//, "")
    .split("/")
    .reduce<unknown>((at, part) => (at as Json)[part], document) as T;
};

/**
 * Checks real answers against an OpenAPI 3.1 document with a JSON Schema 2020-12 validator: the
 * status must be one the operation lists, the body must match that response's schema (closed
 * objects), required headers must be present and every listed header present must match its schema.
 */
export const openApiChecker = (document: Json) => {
  const ajv = new Ajv2020({ strict: true, allErrors: true });
  addFormats.default(ajv);
  const rewrite = (schema: unknown) =>
    closed(JSON.parse(JSON.stringify(schema).replaceAll('"#/components/schemas/', '"components#/$defs/')));
  ajv.addSchema({ $id: "components", $defs: rewrite((document.components as Json).schemas) as object });
  const compiled = new Map<string, ValidateFunction>();
  const validatorOf = (key: string, schema: unknown) => {
    let validate = compiled.get(key);
    if (!validate) {
      validate = ajv.compile(rewrite(schema) as object);
      compiled.set(key, validate);
    }
    return validate;
  };

  /** Problems of one answer of `METHOD /path/{template}`; empty when it conforms. */
  const problems = (method: string, pathTemplate: string, response: Response): string[] => {
    const operation = ((document.paths as Json)[pathTemplate] as Json | undefined)?.[method.toLowerCase()] as
      | { responses: Record<string, unknown> }
      | undefined;
    if (!operation) return [`${method} ${pathTemplate} is not in the document`];
    const status = String(response.statusCode);
    const declared = operation.responses[status];
    if (!declared) return [`${method} ${pathTemplate} answered ${status}, which the document does not list`];
    const spec = resolve<ResponseObject>(document, declared as ResponseObject);
    const out: string[] = [];
    const media = spec.content?.["application/json"];
    if (media) {
      const validate = validatorOf(`${method} ${pathTemplate} ${status}`, media.schema);
      if (!validate(JSON.parse(response.body))) {
        out.push(`body: ${ajv.errorsText(validate.errors, { separator: "; " })}`);
      }
    }
    for (const [name, header] of Object.entries(spec.headers ?? {})) {
      const resolved = resolve<HeaderObject>(document, header);
      const value = response.headers[name];
      if (value === undefined) {
        if (resolved.required) out.push(`header ${name} is missing`);
        continue;
      }
      const typed = resolved.schema.type === "integer" && /^\d+$/.test(String(value)) ? Number(value) : value;
      const validate = validatorOf(`header ${JSON.stringify(resolved.schema)}`, resolved.schema);
      if (!validate(typed)) out.push(`header ${name}=${String(value)}: ${ajv.errorsText(validate.errors)}`);
    }
    return out;
  };
  return { problems };
};
