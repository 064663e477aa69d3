import { initContract } from "@ts-rest/core";
import { z } from "zod";
import { dataEnvelope, paginatedEnvelope } from "../common/envelope.js";
import { PaginationQuerySchema } from "../common/pagination.js";
import { IdSchema, NoQuerySchema, TextParamSchema } from "../common/params.js";
import { GameRecordSchema, GameSlugItemSchema, GameTitleItemSchema } from "../common/rows.js";
import { meta } from "./shared.js";

const c = initContract();

const lookup = dataEnvelope(z.array(GameRecordSchema), { count: z.number().int().nonnegative() });
const games = meta({ scope: "games.read" });

export const gamesRoutes = c.router({
  titles: {
    method: "GET",
    path: "/api/v1/games/titles",
    query: PaginationQuerySchema,
    responses: { 200: paginatedEnvelope(GameTitleItemSchema, {}) },
    summary: "Game titles, alphabetical",
    metadata: games,
  },
  slugs: {
    method: "GET",
    path: "/api/v1/games/slugs",
    query: PaginationQuerySchema,
    responses: { 200: paginatedEnvelope(GameSlugItemSchema, {}) },
    summary: "Game slugs, alphabetical",
    metadata: games,
  },
  byId: {
    method: "GET",
    path: "/api/v1/games/game/:id",
    pathParams: z.object({ id: IdSchema }),
    query: NoQuerySchema,
    responses: { 200: dataEnvelope(GameRecordSchema, {}) },
    summary: "One game by id (404 for an unknown or disabled id)",
    metadata: meta({ scope: "games.read", notFound: "game" }),
  },
  bySlug: {
    method: "GET",
    path: "/api/v1/games/slug/:slug",
    pathParams: z.object({ slug: TextParamSchema(200) }),
    query: NoQuerySchema,
    responses: { 200: lookup },
    summary: "Games with this slug (one per console); empty list when none",
    metadata: games,
  },
  byTitle: {
    method: "GET",
    path: "/api/v1/games/title/:title",
    pathParams: z.object({ title: TextParamSchema(200) }),
    query: NoQuerySchema,
    responses: { 200: lookup },
    summary: "Games with this display title, case-insensitive; empty list when none",
    metadata: games,
  },
  byConsole: {
    method: "GET",
    path: "/api/v1/games/console/:console_id",
    pathParams: z.object({ console_id: IdSchema }),
    query: PaginationQuerySchema,
    responses: { 200: paginatedEnvelope(GameRecordSchema, {}) },
    summary: "Games of one console by name; an unknown console is an empty page",
    metadata: games,
  },
});
