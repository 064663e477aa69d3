import { contract } from "@gmi/contract";
import { initServer } from "@ts-rest/fastify";
import { demandIntentReads as reads } from "../reads/demand-intent.js";
import { answer } from "./answer.js";
import type { RouteDeps } from "./context.js";

const s = initServer();
const routes = contract.demandIntent;

export const demandIntentRouter = (deps: RouteDeps) =>
  s.router(routes, {
    searches: answer(deps, routes.searches, reads.searches),
    trending: answer(deps, routes.trending, reads.trending),
    unmet: answer(deps, routes.unmet, reads.unmet),
    conditions: answer(deps, routes.conditions, reads.conditions),
    gameConditions: answer(deps, routes.gameConditions, reads.gameConditions),
  });
