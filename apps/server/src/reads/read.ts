import type { AppRoute, ServerInferRequest, ServerInferResponseBody } from "@ts-rest/core";
import type { Caller } from "./caller.js";
import type { ReadDeps } from "./deps.js";

/** A GET route of the contract: one answer, a 200. */
export type GetRoute = AppRoute & { method: "GET"; responses: { 200: unknown } };

/**
 * The read of one GET endpoint: from the request as the contract parsed it (query with its
 * defaults, path parameters) and the caller, the whole body of its 200 answer. Errors are thrown
 * (errors.ts). Routes call these through one wrapper (routes/answer.ts).
 */
export type Read<R extends GetRoute> = (
  reads: ReadDeps,
  request: ServerInferRequest<R>,
  caller: Caller,
) => Promise<ServerInferResponseBody<R, 200>>;
