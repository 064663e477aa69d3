import { contract } from "@gmi/contract";
import { initServer } from "@ts-rest/fastify";
import { toGameRecord } from "../domain/catalog/records.js";
import { titleKey } from "../domain/catalog/text.js";
import { notFound } from "../errors.js";
import type { RouteDeps } from "./context.js";
import { paginated } from "./context.js";

const s = initServer();

export const gamesRouter = (deps: RouteDeps) =>
  s.router(contract.games, {
    titles: async ({ query, request, reply }) => ({
      status: 200,
      body: await deps.answers(request, reply, async () => {
        const list = paginated(deps, request, query, { route: "games.titles", scope: {} });
        const listed = await deps.catalog.listTitles(list.pageRequest);
        return list.respond(
          listed,
          (r) => [r.display_game_name, r.id],
          (r) => r,
        );
      }),
    }),
    slugs: async ({ query, request, reply }) => ({
      status: 200,
      body: await deps.answers(request, reply, async () => {
        const list = paginated(deps, request, query, { route: "games.slugs", scope: {} });
        const listed = await deps.catalog.listSlugs(list.pageRequest);
        return list.respond(
          listed,
          (r) => [r.marketplace_game_name, r.id],
          (r) => r,
        );
      }),
    }),
    byId: async ({ params, request, reply }) => ({
      status: 200,
      body: await deps.answers(request, reply, async () => {
        const row = await deps.catalog.findGameById(params.id);
        // Unknown and disabled look the same: a disabled game is withdrawn (docs/decisions.md).
        if (!row) throw notFound("game", params.id);
        return { data: toGameRecord(row), meta: {} };
      }),
    }),
    bySlug: async ({ params, request, reply }) => ({
      status: 200,
      body: await deps.answers(request, reply, async () => {
        const rows = await deps.catalog.findGamesBySlug(params.slug);
        return { data: rows.map(toGameRecord), meta: { count: rows.length } };
      }),
    }),
    byTitle: async ({ params, request, reply }) => ({
      status: 200,
      body: await deps.answers(request, reply, async () => {
        // Fastify has already URL-decoded the path parameter.
        const rows = await deps.catalog.findGamesByTitleKey(titleKey(params.title));
        return { data: rows.map(toGameRecord), meta: { count: rows.length } };
      }),
    }),
    byConsole: async ({ params, query, request, reply }) => ({
      status: 200,
      body: await deps.answers(request, reply, async () => {
        const list = paginated(deps, request, query, {
          route: "games.byConsole",
          scope: { console_id: params.console_id },
        });
        const listed = await deps.catalog.listConsoleGames(params.console_id, list.pageRequest);
        return list.respond(listed, (r) => [r.display_game_name, r.id], toGameRecord);
      }),
    }),
  });
