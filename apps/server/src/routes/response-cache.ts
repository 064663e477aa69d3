import type { FastifyRequest } from "fastify";
import type { Clock } from "../clock.js";
import { BoundedMap } from "../domain/cache/bounded-map.js";
import { authOf } from "../plugins/auth.js";

const JSON_TYPE = "application/json; charset=utf-8";

/** The two reply methods used (ts-rest hands handlers a reply typed against Fastify 4's generics). */
type Reply = {
  type(contentType: string): unknown;
  serializer(serialize: (payload: unknown) => string): unknown;
};

/** Answers one read: `build` makes its body when no fresh copy of the answer is kept. */
export type ResponseCache = <Body>(
  request: FastifyRequest,
  reply: Reply,
  build: () => Promise<Body>,
) => Promise<Body>;

/**
 * Whole answers to identical reads, serialized once and kept for `ttlMs`. Clients ask for the same
 * first pages over and over, and building and serializing a page costs more than all the rest we
 * do for a request (bench:http). The key is everything an answer depends on besides the data: the
 * URL (path and query), the origin its links point to, and the caller's page-size cap. Keys,
 * limits and metering are still checked per request, before the handler; only a 200 is kept (a
 * handler that fails throws). Data changes show within `ttlMs`, like the catalog and snapshot
 * caches underneath; a cursor that expires is honoured up to `ttlMs` longer. ttlMs 0: off.
 */
export const responseCache = (
  clock: Clock,
  ttlMs: number,
  maxEntries = 2_000,
  maxBytes = 8 * 1_048_576,
): ResponseCache => {
  const entries = new BoundedMap<string, { body: unknown; json: string; until: number }>(
    maxEntries,
    maxBytes,
  );
  return async <Body>(request: FastifyRequest, reply: Reply, build: () => Promise<Body>) => {
    if (ttlMs <= 0) return build();
    const key = `${authOf(request).plan.max_page_size} ${request.protocol}://${request.host}${request.url}`;
    const now = clock.now();
    let entry = entries.get(key);
    if (!entry || entry.until <= now) {
      const body = await build();
      entry = { body, json: JSON.stringify(body), until: now + ttlMs };
      // The body object is kept beside its JSON: about twice the JSON's bytes.
      entries.set(key, entry, entry.json.length * 2);
    }
    // Fastify would serialize the body again: hand it the kept serialization instead.
    const { json } = entry;
    reply.type(JSON_TYPE);
    reply.serializer(() => json);
    return entry.body as Body;
  };
};
