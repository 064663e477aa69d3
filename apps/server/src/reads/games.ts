import type { contract } from "@gmi/contract";
import { toGameRecord } from "../domain/catalog/records.js";
import { titleKey } from "../domain/catalog/text.js";
import { notFound } from "../errors.js";
import { countMeta, emptyMeta, pageMeta } from "./meta.js";
import { listPaging } from "./pages.js";
import type { Read } from "./read.js";

type Games = typeof contract.games;

/** `GET /games/titles`: display titles, by title. */
export const titles: Read<Games["titles"]> = async (reads, { query }, caller) => {
  const paging = listPaging(reads, caller, query, { route: "games.titles", scope: {} });
  const page = paging.page(
    await reads.catalog.listTitles(paging.request),
    (r) => [r.display_game_name, r.id],
    (r) => r,
  );
  return { data: page.data, meta: pageMeta(page.pagination), links: page.links };
};

/** `GET /games/slugs`: marketplace names, by name. */
export const slugs: Read<Games["slugs"]> = async (reads, { query }, caller) => {
  const paging = listPaging(reads, caller, query, { route: "games.slugs", scope: {} });
  const page = paging.page(
    await reads.catalog.listSlugs(paging.request),
    (r) => [r.marketplace_game_name, r.id],
    (r) => r,
  );
  return { data: page.data, meta: pageMeta(page.pagination), links: page.links };
};

/** `GET /games/game/:id`. Unknown and disabled look the same: a disabled game is withdrawn (docs/decisions.md). */
export const byId: Read<Games["byId"]> = async (reads, { params }) => {
  const row = await reads.catalog.findGameById(params.id);
  if (!row) throw notFound("game", params.id);
  return { data: toGameRecord(row), meta: emptyMeta() };
};

/** `GET /games/slug/:slug`: every enabled game of a marketplace name. */
export const bySlug: Read<Games["bySlug"]> = async (reads, { params }) => {
  const rows = await reads.catalog.findGamesBySlug(params.slug);
  return { data: rows.map(toGameRecord), meta: countMeta(rows.length) };
};

/** `GET /games/title/:title` (Fastify has already URL-decoded the path parameter). */
export const byTitle: Read<Games["byTitle"]> = async (reads, { params }) => {
  const rows = await reads.catalog.findGamesByTitleKey(titleKey(params.title));
  return { data: rows.map(toGameRecord), meta: countMeta(rows.length) };
};

/** `GET /games/console/:console_id`: a console's games, by title. */
export const byConsole: Read<Games["byConsole"]> = async (reads, { params, query }, caller) => {
  const paging = listPaging(reads, caller, query, {
    route: "games.byConsole",
    scope: { console_id: params.console_id },
  });
  const page = paging.page(
    await reads.catalog.listConsoleGames(params.console_id, paging.request),
    (r) => [r.display_game_name, r.id],
    toGameRecord,
  );
  return { data: page.data, meta: pageMeta(page.pagination), links: page.links };
};
