import { contract } from "@gmi/contract";
import { initServer } from "@ts-rest/fastify";
import { cursorDate, leaderboardPage, positionOf, scopeOf } from "../analytics/lists.js";
import { listingRecommendation, profileOf } from "../analytics/profiles.js";
import { scoringOf } from "../analytics/scoring.js";
import { resolveSnapshot } from "../analytics/snapshot.js";
import { intelligenceBatch } from "./batch.js";
import type { RouteDeps } from "./context.js";
import { paginated } from "./context.js";

const s = initServer();
const routes = contract.intelligence;

export const intelligenceRouter = (deps: RouteDeps) =>
  s.router(routes, {
    list: async ({ query, request }) => {
      const list = paginated(deps, request, query, {
        route: "intelligence.list",
        scope: { period: query.period, date: query.date, console_id: query.console_id, sort: query.sort },
      });
      const snapshot = await resolveSnapshot(
        deps.sql,
        query.period,
        query.date ?? cursorDate(list.pageRequest),
      );
      const listed = await leaderboardPage(
        deps.sql,
        snapshot,
        scopeOf(query.console_id),
        query.sort,
        list.pageRequest,
      );
      const body = list.respond(
        listed,
        (row) => positionOf(snapshot, row.rank),
        (row) => row,
      );
      return {
        status: 200,
        body: {
          ...body,
          meta: { period: snapshot.period, period_date: snapshot.date, sort: query.sort, ...body.meta },
        },
      };
    },
    get: async ({ params, query }) => {
      const snapshot = await resolveSnapshot(deps.sql, query.period, query.date);
      const profile = await profileOf(deps.sql, snapshot, params.id, scoringOf(deps.config.analytics));
      return {
        status: 200,
        body: { data: profile, meta: { period: snapshot.period, period_date: snapshot.date } },
      };
    },
    conditions: async ({ params, query }) => {
      const snapshot = await resolveSnapshot(deps.sql, query.period, query.date);
      const recommendation = await listingRecommendation(deps.sql, snapshot, params.id);
      return {
        status: 200,
        body: { data: recommendation, meta: { period: snapshot.period, period_date: snapshot.date } },
      };
    },
    batch: intelligenceBatch(deps),
  });
