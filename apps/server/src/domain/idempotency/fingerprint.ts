import { createHash } from "node:crypto";
import { canonicalJson, canonicalQuery } from "./canonical.js";

export type FingerprintInput = {
  method: string;
  /** The route path, without the query. */
  path: string;
  /**
   * The query as the endpoint reads it: parsed by its schema, defaults filled in, so `?period=7d`
   * and no period are one query. The raw query string (with or without its leading `?`) when it
   * does not parse: such a request is refused anyway, and its key must not match a valid one.
   */
  query: Readonly<Record<string, unknown>> | string;
  /** The parsed JSON body. */
  body: unknown;
};

/**
 * SHA-256 (hex) of the method, path, canonical query and canonical body: what "the same payload"
 * means for a key. A parameter left to its default and the same parameter spelled out are the same
 * payload (the endpoint cannot tell them apart); the body is compared as sent, in canonical JSON.
 */
export const fingerprint = (input: FingerprintInput): string =>
  createHash("sha256")
    .update(
      JSON.stringify([
        input.method.toUpperCase(),
        input.path,
        typeof input.query === "string"
          ? ["raw", canonicalQuery(input.query)]
          : ["parsed", canonicalJson(input.query)],
        canonicalJson(input.body),
      ]),
    )
    .digest("hex");
