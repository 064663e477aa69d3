import { contract } from "@gmi/contract";
import { initServer } from "@ts-rest/fastify";
import { cursorDate, leaderboardPage, positionOf, scopeOf } from "../analytics/lists.js";
import { listingRecommendation, profileOf } from "../analytics/profiles.js";
import { readCache } from "../analytics/read-cache.js";
import { scoringOf } from "../analytics/scoring.js";
import { cachedSnapshot } from "../analytics/snapshot.js";
import { intelligenceBatch } from "./batch.js";
import type { RouteDeps } from "./context.js";
import { paginated } from "./context.js";

const s = initServer();
const routes = contract.intelligence;

export const intelligenceRouter = (deps: RouteDeps) => {
  const cache = readCache(deps.clock);
  return s.router(routes, {
    list: async ({ query, request, reply }) => ({
      status: 200,
      body: await deps.answers(request, reply, async () => {
        const list = paginated(deps, request, query, {
          route: "intelligence.list",
          scope: { period: query.period, date: query.date, console_id: query.console_id, sort: query.sort },
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
          `liquidity|${snapshot.id}|${scope}|${query.sort}|${JSON.stringify(list.pageRequest)}`,
          null,
          () => leaderboardPage(deps.sql, snapshot, scope, query.sort, list.pageRequest),
        );
        const body = list.respond(
          listed,
          (row) => positionOf(snapshot, row.rank),
          (row) => row,
        );
        return {
          ...body,
          meta: { period: snapshot.period, period_date: snapshot.date, sort: query.sort, ...body.meta },
        };
      }),
    }),
    get: async ({ params, query, request, reply }) => ({
      status: 200,
      body: await deps.answers(request, reply, async () => {
        const snapshot = await cachedSnapshot(cache, deps.sql, query.period, query.date);
        const profile = await profileOf(deps.sql, snapshot, params.id, scoringOf(deps.config.analytics));
        return { data: profile, meta: { period: snapshot.period, period_date: snapshot.date } };
      }),
    }),
    conditions: async ({ params, query, request, reply }) => ({
      status: 200,
      body: await deps.answers(request, reply, async () => {
        const snapshot = await cachedSnapshot(cache, deps.sql, query.period, query.date);
        const recommendation = await listingRecommendation(deps.sql, snapshot, params.id);
        return { data: recommendation, meta: { period: snapshot.period, period_date: snapshot.date } };
      }),
    }),
    batch: intelligenceBatch(deps),
  });
};
