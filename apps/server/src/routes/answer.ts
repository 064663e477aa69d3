import type { ServerInferRequest, ServerInferResponseBody } from "@ts-rest/core";
import type { FastifyRequest } from "fastify";
import { ANSWER_CONTENT_TYPE } from "../caches/response-cache.js";
import { answerKeyOf, authOf } from "../http-request.js";
import type { Caller } from "../reads/caller.js";
import type { GetRoute, Read } from "../reads/read.js";
import type { RouteDeps } from "./context.js";

/** The two reply methods used (ts-rest hands handlers a reply typed against Fastify 4's generics). */
export type Reply = {
  type(contentType: string): unknown;
  serializer(serialize: (payload: unknown) => string): unknown;
};

/** Fastify would serialize the body again: hands it the answer's serialization, made once. */
export const sendSerialized = (reply: Reply, json: string) => {
  reply.type(ANSWER_CONTENT_TYPE);
  reply.serializer(() => json);
};

/** The caller of an authenticated request, and the origin its links point to. */
const callerOf = (request: FastifyRequest, publicBaseUrl: string | undefined): Caller => ({
  auth: authOf(request),
  origin: publicBaseUrl ?? `${request.protocol}://${request.host}`,
  url: request.url,
});

/**
 * The handler of every GET route: its read (reads/) answers through the whole-response cache, which
 * builds the body only when it keeps no fresh copy. `live`: never cached (/me, whose usage moves).
 * `route` only ties the read's types to the route's.
 */
export const answer =
  <R extends GetRoute>(deps: RouteDeps, _route: R, read: Read<R>, options: { live?: boolean } = {}) =>
  async (args: ServerInferRequest<R> & { request: FastifyRequest; reply: Reply }) => {
    const build = () =>
      deps.reads.oneServer(() => read(deps.reads, args, callerOf(args.request, deps.publicBaseUrl)));
    if (options.live) return { status: 200 as const, body: await build() };
    const kept = await deps.responses.answer(answerKeyOf(args.request), build);
    args.reply.type(ANSWER_CONTENT_TYPE);
    // ts-rest hands the body to reply.send, which sends bytes as they are: the answer goes out as
    // kept (its body, typed by `read`, was serialized once when it was built).
    return { status: 200 as const, body: kept as unknown as ServerInferResponseBody<R, 200> };
  };
