import { initContract } from "@ts-rest/core";
import { z } from "zod";
import { dataEnvelope, paginatedEnvelope } from "../common/envelope.js";
import { IdSchema, PeriodQuerySchema } from "../common/params.js";
import {
  fourConditionRows,
  GameIdentitySchema,
  SearchConditionRowSchema,
  SearchRowSchema,
} from "../common/rows.js";
import { ListQuerySchema, meta, periodMeta } from "./shared.js";

const c = initContract();

export const SEARCH_SORTS = ["volume", "momentum", "unmet"] as const;
export const SearchSortSchema = z.enum(SEARCH_SORTS);

export const SearchListQuerySchema = ListQuerySchema.extend({ sort: SearchSortSchema.default("volume") });

/**
 * A game's condition row: the market-wide row's fields restricted to searches resolved to this game,
 * plus the game's redirects and watchlist alerts tagged with that condition (`any` has none).
 */
export const GameConditionRowSchema = SearchConditionRowSchema.extend({
  redirects: z.number().int().nonnegative(),
  watch_count: z.number().int().nonnegative(),
});
export type GameConditionRow = z.infer<typeof GameConditionRowSchema>;

const searchList = <S extends z.ZodTypeAny>(sort: S) =>
  paginatedEnvelope(SearchRowSchema, { ...periodMeta, sort });

export const demandIntentRoutes = c.router({
  searches: {
    method: "GET",
    path: "/api/v1/demand-intent/searches",
    query: SearchListQuerySchema,
    responses: { 200: searchList(SearchSortSchema) },
    summary: "Search demand leaderboard",
    metadata: meta({ scope: "demand-intent.read" }),
  },
  trending: {
    method: "GET",
    path: "/api/v1/demand-intent/searches/trending",
    query: ListQuerySchema,
    responses: { 200: searchList(z.literal("momentum")) },
    summary: "Queries gaining pace fastest (queries without a 30-day baseline excluded)",
    metadata: meta({ scope: "demand-intent.read" }),
  },
  unmet: {
    method: "GET",
    path: "/api/v1/demand-intent/searches/unmet",
    query: ListQuerySchema,
    responses: { 200: searchList(z.literal("unmet")) },
    summary: "Queries that return few or no results, above the minimum search count",
    metadata: meta({ scope: "demand-intent.read" }),
  },
  conditions: {
    method: "GET",
    path: "/api/v1/demand-intent/searches/conditions",
    query: PeriodQuerySchema,
    responses: { 200: dataEnvelope(fourConditionRows(SearchConditionRowSchema), periodMeta) },
    summary: "Market-wide condition mix of searches",
    metadata: meta({ scope: "demand-intent.read" }),
  },
  gameConditions: {
    method: "GET",
    path: "/api/v1/demand-intent/games/:game_id/conditions",
    pathParams: z.object({ game_id: IdSchema }),
    query: PeriodQuerySchema,
    responses: {
      200: dataEnvelope(fourConditionRows(GameConditionRowSchema), {
        ...periodMeta,
        game: GameIdentitySchema,
      }),
    },
    summary: "Condition mix of the demand for one game",
    metadata: meta({ scope: "demand-intent.read", notFound: "game" }),
  },
});
