import { contract } from "@gmi/contract";
import { initServer } from "@ts-rest/fastify";
import * as read from "../reads/games.js";
import { answer } from "./answer.js";
import type { RouteDeps } from "./context.js";

const s = initServer();
const routes = contract.games;

export const gamesRouter = (deps: RouteDeps) =>
  s.router(routes, {
    titles: answer(deps, routes.titles, read.titles),
    slugs: answer(deps, routes.slugs, read.slugs),
    byId: answer(deps, routes.byId, read.byId),
    bySlug: answer(deps, routes.bySlug, read.bySlug),
    byTitle: answer(deps, routes.byTitle, read.byTitle),
    byConsole: answer(deps, routes.byConsole, read.byConsole),
  });
