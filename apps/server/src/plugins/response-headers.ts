import type { FastifyReply, FastifyRequest } from "fastify";
import type { RouteEntry } from "../domain/auth/scope-table.js";
import { globalPlugin } from "./plugin.js";
import { appendHook, contractEntryOf } from "./route-hooks.js";

/**
 * Response headers set at the start of a request (onRequest, before authentication), so that every
 * way an answer leaves carries them: an error, an early answer from the response cache, a replayed
 * batch answer. The dashboard and the docs set their own caching and CSP on top.
 */
export const responseHeadersPlugin = globalPlugin<{ routes: Map<string, RouteEntry> }>(
  "response-headers",
  async (app, { routes }) => {
    // Every answer: a browser must take a body for the type it is sent as, never sniff one.
    app.addHook("onRequest", (_request: FastifyRequest, reply: FastifyReply, done: () => void) => {
      reply.header("x-content-type-options", "nosniff");
      done();
    });
    // Every answer of the API's routes, a refusal included. Answers are about one customer (its
    // limits in the headers, its account on /me) and kept server-side only (the response cache is
    // per replica, behind authentication and metering): no cache between the client and us may keep
    // one, and a browser may not write one to disk.
    const noStore = (_request: FastifyRequest, reply: FastifyReply, done: () => void) => {
      reply.header("cache-control", "no-store");
      done();
    };
    app.addHook("onRoute", (route) => {
      if (contractEntryOf(routes, route)) appendHook(route, "onRequest", noStore);
    });
  },
);
