import type { FastifyRequest } from "fastify";
import { nestsDeeperThan } from "../domain/json/depth.js";
import { validationFailed } from "../errors.js";
import { globalPlugin } from "./plugin.js";

/** No request body of the contract nests deeper than 3 levels; 32 leaves room and stops abuse. */
export const MAX_JSON_DEPTH = 32;

/**
 * Fastify's own JSON parser (prototype poisoning refused), plus a nesting bound checked once, at
 * parse time, so nothing after it (idempotency fingerprint, validation, logging) walks a body
 * thousands of levels deep: found by the contract fuzzer as a 500 on keyed batches. It is the only
 * parser: Fastify's `text/plain` one is removed, so a body of any other type, JSON bytes sent as
 * `text/plain` included, is a 415 (errors.ts) rather than a string that fails validation as a 422.
 */
export const jsonBodyPlugin = globalPlugin("json-body", async (app) => {
  const parse = app.getDefaultJsonParser("error", "error");
  app.removeAllContentTypeParsers();
  app.addContentTypeParser(
    "application/json",
    { parseAs: "string" },
    (
      request: FastifyRequest,
      body: string | Buffer,
      done: (error: Error | null, value?: unknown) => void,
    ) => {
      parse(request, body.toString(), (error: Error | null, value?: unknown) => {
        if (error) return done(error);
        if (nestsDeeperThan(value, MAX_JSON_DEPTH))
          return done(validationFailed("body", "body", `must not nest deeper than ${MAX_JSON_DEPTH} levels`));
        done(null, value);
      });
    },
  );
});
