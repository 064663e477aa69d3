import { contract } from "@gmi/contract";
import { initServer } from "@ts-rest/fastify";
import { gameHistory } from "../reads/history.js";
import { leaderboardPage } from "../reads/lists.js";
import { listingRecommendation, profileOf } from "../reads/profiles.js";
import { readCache } from "../reads/read-cache.js";
import { scoringOf } from "../reads/scoring.js";
import { cachedSnapshot, todayOf } from "../reads/snapshot.js";
import { intelligenceBatch } from "./batch.js";
import type { RouteDeps } from "./context.js";
import { snapshotListPage } from "./snapshot-list.js";

const s = initServer();
const routes = contract.intelligence;

export const intelligenceRouter = (deps: RouteDeps) => {
  const cache = readCache(deps.clock);
  return s.router(routes, {
    list: async ({ query, request, reply }) => ({
      status: 200,
      body: await deps.answers(request, reply, async () => {
        const body = await snapshotListPage(deps, cache, request, query, {
          route: "intelligence.list",
          kind: "liquidity",
          sort: query.sort,
          read: (snapshot, scope, page) => leaderboardPage(deps.sql, snapshot, scope, query.sort, page),
        });
        return { ...body, meta: { ...body.meta, sort: query.sort } };
      }),
    }),
    get: async ({ params, query, request, reply }) => ({
      status: 200,
      body: await deps.answers(request, reply, async () => {
        const snapshot = await cachedSnapshot(cache, deps.sql, deps.clock, query.period, query.date);
        const profile = await profileOf(deps.sql, snapshot, params.id, scoringOf(deps.config.analytics));
        return { data: profile, meta: { period: snapshot.period, period_date: snapshot.date } };
      }),
    }),
    conditions: async ({ params, query, request, reply }) => ({
      status: 200,
      body: await deps.answers(request, reply, async () => {
        const snapshot = await cachedSnapshot(cache, deps.sql, deps.clock, query.period, query.date);
        const recommendation = await listingRecommendation(deps.sql, snapshot, params.id);
        return { data: recommendation, meta: { period: snapshot.period, period_date: snapshot.date } };
      }),
    }),
    history: async ({ params, query, request, reply }) => ({
      status: 200,
      body: await deps.answers(request, reply, async () => {
        const answer = await gameHistory(
          deps.sql,
          params.id,
          query,
          scoringOf(deps.config.analytics),
          todayOf(deps.clock),
        );
        return { data: answer.history, meta: { period: answer.period, from: answer.from, to: answer.to } };
      }),
    }),
    batch: intelligenceBatch(deps),
  });
};
