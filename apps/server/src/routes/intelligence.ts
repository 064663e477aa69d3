import { contract } from "@gmi/contract";
import { initServer } from "@ts-rest/fastify";
import * as read from "../reads/intelligence.js";
import { answer } from "./answer.js";
import { intelligenceBatch } from "./batch.js";
import type { RouteDeps } from "./context.js";

const s = initServer();
const routes = contract.intelligence;

export const intelligenceRouter = (deps: RouteDeps) =>
  s.router(routes, {
    list: answer(deps, routes.list, read.list),
    get: answer(deps, routes.get, read.get),
    conditions: answer(deps, routes.conditions, read.conditions),
    history: answer(deps, routes.history, read.history),
    batch: intelligenceBatch(deps),
  });
