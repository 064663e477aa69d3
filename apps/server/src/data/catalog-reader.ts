import type { ConsoleRow, GameRow } from "../domain/catalog/records.js";
import type { Listed, PageRequest } from "../domain/pagination/page.js";
import type { SlugRow, TitleRow } from "./catalog.js";
import {
  findGameById,
  findGamesBySlug,
  findGamesByTitleKey,
  listConsoleGames,
  listConsoles,
  listSlugs,
  listTitles,
} from "./catalog.js";
import type { Sql } from "./sql.js";

/** The catalog reads the routes make, one prepared statement each (data/catalog.ts). */
export type CatalogReader = {
  listTitles(request: PageRequest): Promise<Listed<TitleRow>>;
  listSlugs(request: PageRequest): Promise<Listed<SlugRow>>;
  listConsoleGames(consoleId: number, request: PageRequest): Promise<Listed<GameRow>>;
  listConsoles(request: PageRequest): Promise<Listed<ConsoleRow>>;
  findGameById(id: number): Promise<GameRow | null>;
  findGamesBySlug(slug: string): Promise<GameRow[]>;
  findGamesByTitleKey(key: string): Promise<GameRow[]>;
};

export const catalogReader = (sql: Sql): CatalogReader => ({
  listTitles: (request) => listTitles(sql, request),
  listSlugs: (request) => listSlugs(sql, request),
  listConsoleGames: (consoleId, request) => listConsoleGames(sql, consoleId, request),
  listConsoles: (request) => listConsoles(sql, request),
  findGameById: (id) => findGameById(sql, id),
  findGamesBySlug: (slug) => findGamesBySlug(sql, slug),
  findGamesByTitleKey: (key) => findGamesByTitleKey(sql, key),
});
