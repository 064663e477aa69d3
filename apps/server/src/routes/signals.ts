import { contract } from "@gmi/contract";
import { initServer } from "@ts-rest/fastify";
import type { RouteDeps } from "./context.js";
import { notComputedYet } from "./not-computed.js";

const s = initServer();

/** PLUG-IN POINT (batch issue): replace with the signals batch handler (metered per element already). */
export const signalsRouter = (_deps: RouteDeps) => s.router(contract.signals, { batch: notComputedYet });
