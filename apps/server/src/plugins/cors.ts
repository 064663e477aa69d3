import type { FastifyReply, FastifyRequest } from "fastify";
import { globalPlugin } from "./plugin.js";

/** What a browser client must be able to read: the limits, the retry hint and the request id. */
export const CORS_EXPOSED_HEADERS =
  "X-RateLimit-Limit, X-RateLimit-Remaining, X-RateLimit-Reset, Retry-After, X-Request-Id, Idempotency-Replayed";
/** What a browser client may send: the key, JSON bodies, idempotency and the SDK's identification. */
export const CORS_ALLOWED_HEADERS =
  "Authorization, Content-Type, Idempotency-Key, X-GMI-Client, X-GMI-Retry-Count";
export const CORS_ALLOWED_METHODS = "GET, POST, OPTIONS";
/** How long a browser may reuse a preflight answer (seconds). */
const PREFLIGHT_MAX_AGE = "600";

export type CorsOptions = { origins: readonly string[] | "*" };

/**
 * CORS for browser clients on other origins (CORS_ORIGINS). Every response to an allowed origin
 * carries the allow-origin and exposed headers (set first, so errors keep them); a preflight is
 * answered here with 204 before auth and limits see it: it carries no key and costs nothing. An
 * origin not on the list gets no CORS headers, so the browser refuses the call; with no list,
 * the server sends none at all. Credentials are never allowed: keys travel in Authorization, not
 * cookies.
 */
export const corsPlugin = globalPlugin<CorsOptions>("cors", async (app, { origins }) => {
  const any = origins === "*";
  const allowed = new Set(any ? [] : origins);
  if (!any && allowed.size === 0) return;

  app.addHook("onRequest", (request: FastifyRequest, reply: FastifyReply, done: () => void) => {
    const origin = request.headers.origin;
    if (!any) reply.header("vary", "Origin");
    if (!origin || !(any || allowed.has(origin))) return done();
    reply.header("access-control-allow-origin", any ? "*" : origin);
    if (request.method === "OPTIONS" && request.headers["access-control-request-method"]) {
      reply
        .code(204)
        .header("access-control-allow-methods", CORS_ALLOWED_METHODS)
        .header("access-control-allow-headers", CORS_ALLOWED_HEADERS)
        .header("access-control-max-age", PREFLIGHT_MAX_AGE)
        .send();
      return;
    }
    reply.header("access-control-expose-headers", CORS_EXPOSED_HEADERS);
    done();
  });
});
