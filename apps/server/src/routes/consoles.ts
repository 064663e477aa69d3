import { contract } from "@gmi/contract";
import { initServer } from "@ts-rest/fastify";
import * as read from "../reads/consoles.js";
import { answer } from "./answer.js";
import type { RouteDeps } from "./context.js";

const s = initServer();
const routes = contract.consoles;

export const consolesRouter = (deps: RouteDeps) =>
  s.router(routes, { list: answer(deps, routes.list, read.list) });
