/**
 * Runtime validation of answers against the contract's zod schemas (loads zod and `@gmi/contract`).
 *
 * @module @gmi/sdk/validate
 */
import { type ContractRoute, ErrorEnvelopeSchema, listRoutes } from "@gmi/contract";
import type { ErrorCode } from "../internal/contract-types.js";
import type { ResponseValidator } from "../internal/transport.js";

interface Parser {
  parse(value: unknown): unknown;
}
const isParser = (value: unknown): value is Parser =>
  typeof value === "object" && value !== null && typeof (value as Parser).parse === "function";

/**
 * Checks every successful answer against the contract's zod schema for its route and status (this
 * entry loads zod and the contract; the main entry never does). A mismatch becomes an
 * `UnexpectedResponseError` whose `cause` is the ZodError.
 *
 * ```ts
 * import { validateResponses } from "@gmi/sdk/validate";
 * const client = new GmiClient({ apiKey, baseUrl, validate: validateResponses() });
 * ```
 */
export const validateResponses = (): ResponseValidator => {
  const routes = new Map<string, ContractRoute>(listRoutes().map(({ name, route }) => [name, route]));
  return (name, status, body) => {
    const schema = (routes.get(name)?.responses as Record<number, unknown> | undefined)?.[status];
    return isParser(schema) ? schema.parse(body) : body;
  };
};

/** The error envelope as {@link validateErrorBody} returns it. */
export interface ValidatedErrorBody {
  /** The error: a known code, its message, and `details` when the code has some. */
  error: { code: ErrorCode; message: string; details?: Record<string, unknown> | undefined };
}

/**
 * Checks an error body against the contract's error envelope (codes and their `details`). Typed
 * here rather than inferred from the contract, so the declarations do not depend on how it was built.
 */
export const validateErrorBody = (body: unknown): ValidatedErrorBody => ErrorEnvelopeSchema.parse(body);
