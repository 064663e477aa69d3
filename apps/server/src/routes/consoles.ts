import { contract } from "@gmi/contract";
import { initServer } from "@ts-rest/fastify";
import { toConsoleRecord } from "../domain/catalog/records.js";
import type { RouteDeps } from "./context.js";
import { paginated } from "./context.js";

const s = initServer();

export const consolesRouter = (deps: RouteDeps) =>
  s.router(contract.consoles, {
    list: async ({ query, request, reply }) => ({
      status: 200,
      body: await deps.answers(request, reply, async () => {
        const list = paginated(deps, request, query, { route: "consoles.list", scope: {} });
        const listed = await deps.catalog.listConsoles(list.pageRequest);
        return list.respond(listed, (r) => [r.name, r.id], toConsoleRecord);
      }),
    }),
  });
