import type { FastifyReply, FastifyRequest } from "fastify";
import type pino from "pino";
import { accessLogWriter } from "../logging/access-line.js";
import { clientIdentity } from "../logging/sdk-client.js";
import { globalPlugin } from "./plugin.js";
import { appendHook } from "./route-hooks.js";

declare module "fastify" {
  interface FastifyRequest {
    /** The route pattern served (`/api/v1/games/game/:id`), null when no route matched. */
    routeUrl: string | null;
  }
}

/**
 * Every response carries X-Request-Id (set at the first onRequest hook, which every routed request
 * passes, 404s included; errors keep headers already set; app.ts covers pre-routing failures), and
 * every request ends in one structured log line (logging/access-line.ts). The request id is in every
 * line of the request because Fastify's per-request child logger carries it (genReqId in app.ts).
 * The Authorization header is never logged: of the headers, only the SDK's identification is, parsed
 * and bounded (logging/sdk-client.ts).
 */
export const requestContextPlugin = globalPlugin<{ logger: pino.Logger }>(
  "request-context",
  async (app, { logger }) => {
    const logRequest = accessLogWriter(logger);
    app.decorateRequest("routeUrl", null);
    // Set per route at registration: Fastify's request.routeOptions builds a fresh object per read.
    app.addHook("onRoute", (route) => {
      const url = route.url;
      appendHook(route, "onRequest", (request: FastifyRequest, _reply: FastifyReply, done: () => void) => {
        request.routeUrl = url;
        done();
      });
    });
    app.addHook("onRequest", (request, reply, done) => {
      reply.header("x-request-id", request.id);
      done();
    });
    app.addHook("onResponse", (request, reply, done) => {
      logRequest({
        requestId: request.id,
        method: request.method,
        route: request.routeUrl,
        status: reply.statusCode,
        durationMs: Math.round(reply.elapsedTime * 100) / 100,
        organizationId: request.auth?.organization.id ?? null,
        ...clientIdentity(request.headers),
      });
      done();
    });
  },
);
