import { contract } from "@gmi/contract";
import { initServer } from "@ts-rest/fastify";
import { gamesReads as reads } from "../reads/catalog.js";
import { answer } from "./answer.js";
import type { RouteDeps } from "./context.js";

const s = initServer();
const routes = contract.games;

export const gamesRouter = (deps: RouteDeps) =>
  s.router(routes, {
    titles: answer(deps, routes.titles, reads.titles),
    slugs: answer(deps, routes.slugs, reads.slugs),
    byId: answer(deps, routes.byId, reads.byId),
    bySlug: answer(deps, routes.bySlug, reads.bySlug),
    byTitle: answer(deps, routes.byTitle, reads.byTitle),
    byConsole: answer(deps, routes.byConsole, reads.byConsole),
  });
