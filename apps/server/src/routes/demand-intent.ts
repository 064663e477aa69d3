import { contract, type ListQuerySchema } from "@gmi/contract";
import { initServer } from "@ts-rest/fastify";
import type { FastifyRequest } from "fastify";
import type { z } from "zod";
import type { SearchSort } from "../domain/analytics/to-contract.js";
import { searchPage } from "../reads/lists.js";
import { gameConditions, marketConditions } from "../reads/profiles.js";
import { type ReadCache, readCache } from "../reads/read-cache.js";
import { cachedSnapshot } from "../reads/snapshot.js";
import type { RouteDeps } from "./context.js";
import { snapshotListPage } from "./snapshot-list.js";

const s = initServer();
const routes = contract.demandIntent;

/** One search list in one sort: the three list endpoints differ only by it. */
const searchList = (
  deps: RouteDeps,
  cache: ReadCache,
  request: FastifyRequest,
  query: z.infer<typeof ListQuerySchema>,
  route: string,
  sort: SearchSort,
) =>
  snapshotListPage(deps, cache, request, query, {
    route,
    kind: "search",
    sort,
    read: (snapshot, scope, page) => searchPage(deps.sql, snapshot, scope, sort, page),
  });

export const demandIntentRouter = (deps: RouteDeps) => {
  const cache = readCache(deps.clock);
  return s.router(routes, {
    searches: async ({ query, request, reply }) => ({
      status: 200,
      body: await deps.answers(request, reply, async () => {
        const body = await searchList(deps, cache, request, query, "demandIntent.searches", query.sort);
        return { ...body, meta: { ...body.meta, sort: query.sort } };
      }),
    }),
    trending: async ({ query, request, reply }) => ({
      status: 200,
      body: await deps.answers(request, reply, async () => {
        const body = await searchList(deps, cache, request, query, "demandIntent.trending", "momentum");
        return { ...body, meta: { ...body.meta, sort: "momentum" as const } };
      }),
    }),
    unmet: async ({ query, request, reply }) => ({
      status: 200,
      body: await deps.answers(request, reply, async () => {
        const body = await searchList(deps, cache, request, query, "demandIntent.unmet", "unmet");
        return { ...body, meta: { ...body.meta, sort: "unmet" as const } };
      }),
    }),
    conditions: async ({ query, request, reply }) => ({
      status: 200,
      body: await deps.answers(request, reply, async () => {
        const snapshot = await cachedSnapshot(cache, deps.sql, deps.clock, query.period, query.date);
        const data = await marketConditions(deps.sql, snapshot);
        return { data, meta: { period: snapshot.period, period_date: snapshot.date } };
      }),
    }),
    gameConditions: async ({ params, query, request, reply }) => ({
      status: 200,
      body: await deps.answers(request, reply, async () => {
        const snapshot = await cachedSnapshot(cache, deps.sql, deps.clock, query.period, query.date);
        const { game, rows } = await gameConditions(deps.sql, snapshot, params.game_id);
        return {
          data: rows,
          meta: { period: snapshot.period, period_date: snapshot.date, game: game.identity },
        };
      }),
    }),
  });
};
