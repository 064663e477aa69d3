import type { PaginationQuery } from "@gmi/contract";
import type { FastifyRequest } from "fastify";
import type { Clock } from "../clock.js";
import type { Config } from "../config.js";
import type { Listed } from "../data/catalog.js";
import type { CatalogReader } from "../data/catalog-reader.js";
import type { DataVersion } from "../data/data-version.js";
import type { Sql } from "../data/sql.js";
import type { UsageStore } from "../domain/limits/usage.js";
import type { CursorBinding, CursorPosition } from "../domain/pagination/cursor.js";
import { decodeCursor, encodeCursor } from "../domain/pagination/cursor.js";
import { buildLinks } from "../domain/pagination/links.js";
import type { PageRequest } from "../domain/pagination/page.js";
import { buildPage, resolvePageRequest } from "../domain/pagination/page.js";
import { authOf } from "../plugins/auth.js";
import type { ResponseCache } from "./response-cache.js";

/** What route handlers get: the database, caches, time, usage, and the few settings they read. */
export type RouteDeps = {
  sql: Sql;
  catalog: CatalogReader;
  /** Whole answers to identical reads (every read but /me, whose usage is live). */
  answers: ResponseCache;
  clock: Clock;
  usage: UsageStore;
  /**
   * The fingerprint of the catalog and snapshots, read once a second: caches keep answers while it
   * holds. Null when answer caches are off (RESPONSE_CACHE_TTL_MS=0).
   */
  dataVersion: DataVersion | null;
  config: Pick<Config, "cursorSecret" | "publicBaseUrl" | "analytics">;
};

/** Where links point: PUBLIC_BASE_URL when set (behind a proxy), else the request's own origin. */
const linkBase = (request: FastifyRequest, publicBaseUrl: string | undefined) => {
  const [path = "/", search = ""] = request.url.split("?");
  return {
    base: publicBaseUrl ?? `${request.protocol}://${request.host}`,
    path,
    query: new URLSearchParams(search),
  };
};

/**
 * The HTTP side of a paginated list, shared by every list route (catalog and analytics): resolves
 * the page request under the caller's plan cap and a cursor bound to `binding`, and turns the data
 * layer's rows into `{data, meta: {pagination}, links}`.
 */
export const paginated = (
  deps: RouteDeps,
  request: FastifyRequest,
  query: PaginationQuery,
  binding: CursorBinding,
) => {
  const plan = authOf(request).plan;
  const now = deps.clock.now();
  const pageRequest: PageRequest = resolvePageRequest(query, plan.max_page_size, (token) =>
    decodeCursor(deps.config.cursorSecret, binding, token, now),
  );
  const respond = <Row, Out>(
    listed: Listed<Row>,
    positionOf: (row: Row) => CursorPosition,
    toOut: (row: Row) => Out,
  ) => {
    const page = buildPage(pageRequest, listed.rows, listed.total, (row) =>
      encodeCursor(deps.config.cursorSecret, binding, positionOf(row), now),
    );
    const { base, path, query: params } = linkBase(request, deps.config.publicBaseUrl);
    return {
      data: page.rows.map(toOut),
      meta: { pagination: page.pagination },
      links: buildLinks(base, path, params, page),
    };
  };
  return { pageRequest, respond };
};
