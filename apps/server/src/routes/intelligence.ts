import { contract } from "@gmi/contract";
import { initServer } from "@ts-rest/fastify";
import { intelligenceReads as reads } from "../reads/intelligence.js";
import { answer } from "./answer.js";
import { intelligenceBatch } from "./batch.js";
import type { RouteDeps } from "./context.js";

const s = initServer();
const routes = contract.intelligence;

export const intelligenceRouter = (deps: RouteDeps) =>
  s.router(routes, {
    list: answer(deps, routes.list, reads.list),
    get: answer(deps, routes.get, reads.get),
    conditions: answer(deps, routes.conditions, reads.conditions),
    history: answer(deps, routes.history, reads.history),
    batch: intelligenceBatch(deps),
  });
