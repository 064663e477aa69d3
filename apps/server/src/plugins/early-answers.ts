import type { FastifyReply, FastifyRequest } from "fastify";
import type { RouteEntry } from "../domain/auth/scope-table.js";
import type { ResponseCache } from "../routes/response-cache.js";
import { globalPlugin } from "./plugin.js";
import { appendHook, contractEntryOf } from "./route-hooks.js";

const JSON_TYPE = "application/json; charset=utf-8";

/**
 * Kept answers (routes/response-cache.ts) sent before validation and the handler: on a GET of the
 * contract, after authentication and metering (onRequest), a preHandler sends the kept JSON when
 * the response cache holds a fresh answer for this very request; otherwise the request goes on to
 * ts-rest's validation and the handler, which builds and keeps the answer. The query's zod parse,
 * ts-rest's handler and the route's closures were most of what a cached read still cost in our own
 * code (bench:traffic). Registered before the contract's routes.
 */
export const earlyAnswersPlugin = globalPlugin<{ answers: ResponseCache; routes: Map<string, RouteEntry> }>(
  "early-answers",
  async (app, { answers, routes }) => {
    app.addHook("onRoute", (route) => {
      if (route.method !== "GET" && route.method !== "HEAD") return;
      const entry = contractEntryOf(routes, route);
      if (!entry || entry.batch) return;
      appendHook(route, "preHandler", async (request: FastifyRequest, reply: FastifyReply) => {
        const json = await answers.early(request);
        if (json === null) return;
        reply.type(JSON_TYPE);
        return reply.send(json);
      });
    });
  },
);
