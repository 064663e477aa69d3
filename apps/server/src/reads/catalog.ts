import type { contract } from "@gmi/contract";
import { toConsoleRecord, toGameRecord } from "../domain/catalog/records.js";
import { titleKey } from "../domain/catalog/text.js";
import { notFound } from "../errors.js";
import type { Caller } from "./caller.js";
import type { ReadDeps } from "./deps.js";
import { countMeta, emptyMeta, pageMeta } from "./meta.js";
import { pagingOf } from "./pages.js";
import type { Read } from "./read.js";

type Games = typeof contract.games;
type Consoles = typeof contract.consoles;

/** The paging of a catalog list, whose cursors are bound to its route and scope. */
const catalogPaging = (
  reads: ReadDeps,
  caller: Caller,
  query: Parameters<typeof pagingOf>[2],
  route: string,
  scope: Record<string, number> = {},
) => pagingOf({ cursorSecret: reads.cursorSecret, now: reads.clock.now() }, caller, query, { route, scope });

/** `GET /games/titles`: display titles, by title. */
const titles: Read<Games["titles"]> = async (reads, { query }, caller) => {
  const paging = catalogPaging(reads, caller, query, "games.titles");
  const page = paging.page(
    await reads.catalog.listTitles(paging.request),
    (r) => [r.display_game_name, r.id],
    (r) => r,
  );
  return { data: page.data, meta: pageMeta(page.pagination), links: page.links };
};

/** `GET /games/slugs`: marketplace names, by name. */
const slugs: Read<Games["slugs"]> = async (reads, { query }, caller) => {
  const paging = catalogPaging(reads, caller, query, "games.slugs");
  const page = paging.page(
    await reads.catalog.listSlugs(paging.request),
    (r) => [r.marketplace_game_name, r.id],
    (r) => r,
  );
  return { data: page.data, meta: pageMeta(page.pagination), links: page.links };
};

/** `GET /games/game/:id`. Unknown and disabled look the same: a disabled game is withdrawn (docs/decisions.md). */
const byId: Read<Games["byId"]> = async (reads, { params }) => {
  const row = await reads.catalog.findGameById(params.id);
  if (!row) throw notFound("game", params.id);
  return { data: toGameRecord(row), meta: emptyMeta() };
};

/** `GET /games/slug/:slug`: every enabled game of a marketplace name. */
const bySlug: Read<Games["bySlug"]> = async (reads, { params }) => {
  const rows = await reads.catalog.findGamesBySlug(params.slug);
  return { data: rows.map(toGameRecord), meta: countMeta(rows.length) };
};

/** `GET /games/title/:title` (Fastify has already URL-decoded the path parameter). */
const byTitle: Read<Games["byTitle"]> = async (reads, { params }) => {
  const rows = await reads.catalog.findGamesByTitleKey(titleKey(params.title));
  return { data: rows.map(toGameRecord), meta: countMeta(rows.length) };
};

/** `GET /games/console/:console_id`: a console's games, by title. */
const byConsole: Read<Games["byConsole"]> = async (reads, { params, query }, caller) => {
  const paging = catalogPaging(reads, caller, query, "games.byConsole", { console_id: params.console_id });
  const page = paging.page(
    await reads.catalog.listConsoleGames(params.console_id, paging.request),
    (r) => [r.display_game_name, r.id],
    toGameRecord,
  );
  return { data: page.data, meta: pageMeta(page.pagination), links: page.links };
};

/** `GET /consoles`: consoles, by name. */
const list: Read<Consoles["list"]> = async (reads, { query }, caller) => {
  const paging = catalogPaging(reads, caller, query, "consoles.list");
  const page = paging.page(
    await reads.catalog.listConsoles(paging.request),
    (r) => [r.name, r.id],
    toConsoleRecord,
  );
  return { data: page.data, meta: pageMeta(page.pagination), links: page.links };
};

/** The reads of the games and consoles routes, named as the contract names them. */
export const gamesReads = { titles, slugs, byId, bySlug, byTitle, byConsole };
export const consolesReads = { list };
