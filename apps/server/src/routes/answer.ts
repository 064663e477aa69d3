import type { ServerInferRequest } from "@ts-rest/core";
import type { FastifyRequest } from "fastify";
import { authOf } from "../plugins/auth.js";
import type { Caller } from "../reads/caller.js";
import type { GetRoute, Read } from "../reads/read.js";
import type { RouteDeps } from "./context.js";
import type { ResponseCache } from "./response-cache.js";

type Reply = Parameters<ResponseCache>[1];

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
    return {
      status: 200 as const,
      body: options.live ? await build() : await deps.responses(args.request, args.reply, build),
    };
  };
