import { contract } from "@gmi/contract";
import { initServer } from "@ts-rest/fastify";
import { signalsBatch } from "./batch.js";
import type { RouteDeps } from "./context.js";

const s = initServer();

/** The handler lives in ./batch.ts with the intelligence batch: the two differ only in their element. */
export const signalsRouter = (deps: RouteDeps) => s.router(contract.signals, { batch: signalsBatch(deps) });
