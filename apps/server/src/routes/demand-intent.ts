import { contract } from "@gmi/contract";
import { initServer } from "@ts-rest/fastify";
import * as read from "../reads/demand-intent.js";
import { answer } from "./answer.js";
import type { RouteDeps } from "./context.js";

const s = initServer();
const routes = contract.demandIntent;

export const demandIntentRouter = (deps: RouteDeps) =>
  s.router(routes, {
    searches: answer(deps, routes.searches, read.searches),
    trending: answer(deps, routes.trending, read.trending),
    unmet: answer(deps, routes.unmet, read.unmet),
    conditions: answer(deps, routes.conditions, read.conditions),
    gameConditions: answer(deps, routes.gameConditions, read.gameConditions),
  });
