import type { Clock } from "../clock.js";
import { BoundedMap, jsonWeight } from "../domain/cache/bounded-map.js";
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

/** The catalog reads the routes make. */
export type CatalogReader = {
  listTitles(request: PageRequest): Promise<Listed<TitleRow>>;
  listSlugs(request: PageRequest): Promise<Listed<SlugRow>>;
  listConsoleGames(consoleId: number, request: PageRequest): Promise<Listed<GameRow>>;
  listConsoles(request: PageRequest): Promise<Listed<ConsoleRow>>;
  findGameById(id: number): Promise<GameRow | null>;
  findGamesBySlug(slug: string): Promise<GameRow[]>;
  findGamesByTitleKey(key: string): Promise<GameRow[]>;
};

/**
 * Catalog reads with a short per-process cache. The catalog changes by imports, rarely, and every
 * client reads the same first pages, so answering identical reads from memory for `ttlMs` takes
 * most of the load off PostgreSQL; a catalog change shows within `ttlMs`. The promise is cached,
 * so a burst of identical requests makes one query. ttlMs 0: no cache.
 */
export const catalogReader = (
  sql: Sql,
  options: { ttlMs: number; clock: Clock; maxEntries?: number; maxBytes?: number },
): CatalogReader => {
  const direct: CatalogReader = {
    listTitles: (request) => listTitles(sql, request),
    listSlugs: (request) => listSlugs(sql, request),
    listConsoleGames: (consoleId, request) => listConsoleGames(sql, consoleId, request),
    listConsoles: (request) => listConsoles(sql, request),
    findGameById: (id) => findGameById(sql, id),
    findGamesBySlug: (slug) => findGamesBySlug(sql, slug),
    findGamesByTitleKey: (key) => findGamesByTitleKey(sql, key),
  };
  if (options.ttlMs <= 0) return direct;
  const maxEntries = options.maxEntries ?? 5_000;
  const entries = new BoundedMap<string, { until: number; value: Promise<unknown> }>(
    maxEntries,
    options.maxBytes ?? 8 * 1_048_576,
  );
  const memo =
    <Args extends unknown[], R>(name: string, read: (...args: Args) => Promise<R>) =>
    (...args: Args): Promise<R> => {
      const key = `${name}:${JSON.stringify(args)}`;
      const now = options.clock.now();
      const hit = entries.get(key);
      if (hit && hit.until > now) return hit.value as Promise<R>;
      const value = read(...args);
      const entry = { until: now + options.ttlMs, value };
      entries.set(key, entry);
      // Weighed once read; a failed read is not remembered: the next request tries again.
      value.then(
        (result) => entries.weigh(key, entry, jsonWeight(result)),
        () => entries.delete(key),
      );
      return value;
    };
  return {
    listTitles: memo("titles", direct.listTitles),
    listSlugs: memo("slugs", direct.listSlugs),
    listConsoleGames: memo("consoleGames", direct.listConsoleGames),
    listConsoles: memo("consoles", direct.listConsoles),
    findGameById: memo("gameById", direct.findGameById),
    findGamesBySlug: memo("gamesBySlug", direct.findGamesBySlug),
    findGamesByTitleKey: memo("gamesByTitle", direct.findGamesByTitleKey),
  };
};
