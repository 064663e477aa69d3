import type { FastifyReply, FastifyRequest } from "fastify";
import { ANSWER_CONTENT_TYPE, type KeptAnswer, type ResponseCache } from "../caches/response-cache.js";
import type { RouteEntry } from "../domain/auth/scope-table.js";
import { answerKeyOf } from "../http-request.js";
import { globalPlugin } from "./plugin.js";
import { appendHook, contractEntryOf } from "./route-hooks.js";

/** Sends the kept answer; the hook then ends without `done`, which would run the handler too. */
const send = (reply: FastifyReply, kept: KeptAnswer) => {
  reply.type(ANSWER_CONTENT_TYPE).send(kept);
};

/**
 * Kept answers (caches/response-cache.ts) sent before validation and the handler: on a GET of the
 * contract, after authentication and metering (onRequest), a preHandler sends the kept answer when
 * the response cache holds a fresh answer for this very request; otherwise the request goes on to
 * ts-rest's validation and the handler, which builds and keeps the answer. The query's zod parse,
 * ts-rest's handler and the route's closures were most of what a cached read still cost in our own
 * code (bench:traffic). Registered before the contract's routes.
 */
export const earlyAnswersPlugin = globalPlugin<{
  answers: ResponseCache;
  routes: Map<string, RouteEntry>;
  /** Told of each lookup: a kept answer was sent, or the request goes on to its read (metrics). */
  onLookup: (kept: boolean) => void;
}>("early-answers", async (app, { answers, routes, onLookup }) => {
  // A callback hook, not an async one: a kept answer is nearly always known at once, and an async
  // hook costs a promise and a turn of the microtask queue on every cached read.
  const answerEarly = (request: FastifyRequest, reply: FastifyReply, done: (error?: Error) => void) => {
    const kept = answers.early(answerKeyOf(request));
    if (kept === null) {
      onLookup(false);
      return done();
    }
    if (Buffer.isBuffer(kept)) {
      onLookup(true);
      return send(reply, kept);
    }
    // What fails here reaches the error handler, as a rejected async hook's error would.
    kept
      .then((answer) => {
        onLookup(answer !== null);
        return answer === null ? done() : send(reply, answer);
      })
      .catch(done);
  };
  app.addHook("onRoute", (route) => {
    if (route.method !== "GET" && route.method !== "HEAD") return;
    const entry = contractEntryOf(routes, route);
    if (!entry || entry.batch) return;
    appendHook(route, "preHandler", answerEarly);
  });
});
