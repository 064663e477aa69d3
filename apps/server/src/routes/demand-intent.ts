import { contract, type ListQuerySchema } from "@gmi/contract";
import { initServer } from "@ts-rest/fastify";
import type { FastifyRequest } from "fastify";
import type { z } from "zod";
import { cursorDate, positionOf, scopeOf, searchPage } from "../analytics/lists.js";
import { gameConditions, marketConditions } from "../analytics/profiles.js";
import { type ReadCache, readCache } from "../analytics/read-cache.js";
import { cachedSnapshot } from "../analytics/snapshot.js";
import type { SearchSort } from "../domain/analytics/to-contract.js";
import type { RouteDeps } from "./context.js";
import { paginated } from "./context.js";

const s = initServer();
const routes = contract.demandIntent;

/** One search leaderboard in one sort: the three list endpoints differ only by it. */
const searchList = async (
  deps: RouteDeps,
  cache: ReadCache,
  request: FastifyRequest,
  query: z.infer<typeof ListQuerySchema>,
  route: string,
  sort: SearchSort,
) => {
  const list = paginated(deps, request, query, {
    route,
    scope: { period: query.period, date: query.date, console_id: query.console_id, sort },
  });
  const snapshot = await cachedSnapshot(
    cache,
    deps.sql,
    query.period,
    query.date ?? cursorDate(list.pageRequest),
  );
  const scope = scopeOf(query.console_id);
  // A snapshot never changes: its pages are kept until evicted.
  const listed = await cache.get(
    `search|${snapshot.id}|${scope}|${sort}|${JSON.stringify(list.pageRequest)}`,
    null,
    () => searchPage(deps.sql, snapshot, scope, sort, list.pageRequest),
  );
  const body = list.respond(
    listed,
    (row) => positionOf(snapshot, row.rank),
    (row) => row,
  );
  return { ...body, meta: { period: snapshot.period, period_date: snapshot.date, ...body.meta } };
};

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
        const snapshot = await cachedSnapshot(cache, deps.sql, query.period, query.date);
        const data = await marketConditions(deps.sql, snapshot);
        return { data, meta: { period: snapshot.period, period_date: snapshot.date } };
      }),
    }),
    gameConditions: async ({ params, query, request, reply }) => ({
      status: 200,
      body: await deps.answers(request, reply, async () => {
        const snapshot = await cachedSnapshot(cache, deps.sql, query.period, query.date);
        const { game, rows } = await gameConditions(deps.sql, snapshot, params.game_id);
        return {
          data: rows,
          meta: { period: snapshot.period, period_date: snapshot.date, game: game.identity },
        };
      }),
    }),
  });
};
