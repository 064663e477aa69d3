import { contract } from "@gmi/contract";
import { initServer } from "@ts-rest/fastify";
import * as read from "../reads/account.js";
import { answer } from "./answer.js";
import type { RouteDeps } from "./context.js";

const s = initServer();
const routes = contract.account;

/** `/me` is answered live: its usage moves with every request. */
export const accountRouter = (deps: RouteDeps) =>
  s.router(routes, { me: answer(deps, routes.me, read.me, { live: true }) });
