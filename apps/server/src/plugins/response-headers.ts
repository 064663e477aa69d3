import type { FastifyReply, FastifyRequest } from "fastify";
import type { RouteEntry } from "../domain/auth/scope-table.js";
import { globalPlugin } from "./plugin.js";
import { appendHook, contractEntryOf } from "./route-hooks.js";

/** Every answer: a browser must take a body for the type it is sent as, never sniff one. */
const EVERY_ANSWER = { "x-content-type-options": "nosniff" };
/**
 * Every answer of the API's routes, a refusal included. Answers are about one customer (its
 * limits in the headers, its account on /me) and kept server-side only (the response cache is per
 * replica, behind authentication and metering): no cache between the client and us may keep one,
 * and a browser may not write one to disk.
 */
const API_ANSWER = { "cache-control": "no-store" };

/**
 * Response headers set at the start of a request (onRequest, before authentication), so that every
 * way an answer leaves carries them: an error, an early answer from the response cache, a replayed
 * batch answer. The dashboard and the docs set their own caching and CSP on top.
 */
export const responseHeadersPlugin = globalPlugin<{ routes: Map<string, RouteEntry> }>(
  "response-headers",
  async (app, { routes }) => {
    app.addHook("onRequest", (_request: FastifyRequest, reply: FastifyReply, done: () => void) => {
      reply.headers(EVERY_ANSWER);
      done();
    });
    const noStore = (_request: FastifyRequest, reply: FastifyReply, done: () => void) => {
      reply.headers(API_ANSWER);
      done();
    };
    app.addHook("onRoute", (route) => {
      if (contractEntryOf(routes, route)) appendHook(route, "onRequest", noStore);
    });
  },
);
