import { createHash } from "node:crypto";
import { canonicalJson, canonicalQuery } from "./canonical.js";

export type FingerprintInput = {
  method: string;
  /** The route path, without the query. */
  path: string;
  /** The raw query string, with or without its leading `?`. */
  query: string;
  /** The parsed JSON body. */
  body: unknown;
};

/**
 * SHA-256 (hex) of the method, path, canonical query and canonical body: what "the same payload"
 * means for a key. Parameters the API ignores still count (they are part of what the client sent);
 * defaults are not filled in (`?period=7d` and no period are different payloads).
 */
export const fingerprint = (input: FingerprintInput): string =>
  createHash("sha256")
    .update(
      JSON.stringify([
        input.method.toUpperCase(),
        input.path,
        canonicalQuery(input.query),
        canonicalJson(input.body),
      ]),
    )
    .digest("hex");
