import type { Links, Pagination, PaginationQuery } from "@gmi/contract";
import type { CursorBinding, CursorCodec, CursorPosition } from "./cursor.js";
import { buildLinks, linkQuery } from "./links.js";
import { buildPage, type Listed, type PageRequest, resolvePageRequest } from "./page.js";

/** One page of a list, before its `meta` is written: rows, pagination, links. */
export type Page<Out> = { data: Out[]; pagination: Pagination; links: Links };

/** Who asks, as paging sees it: the plan's page cap, the origin links point to, the request's URL (path and query). */
export type PagingCaller = { maxPageSize: number; origin: string; url: string };

/**
 * The paging of every list (catalog and analytics): the page request under the caller's plan cap,
 * with a cursor bound to `binding` (its route and scope), and `page(...)` turning the rows read into
 * the page of the answer. `query` is the request's whole parsed query: the links repeat every
 * parameter of it as resolved (links.ts), with `pinned` over them. The codec signs cursors on the
 * server and leaves them unsigned in the mocks.
 */
export const pagingWith = (
  cursors: { codec: CursorCodec; now: number },
  caller: PagingCaller,
  query: PaginationQuery & Record<string, unknown>,
  binding: CursorBinding,
) => {
  const request: PageRequest = resolvePageRequest(query, caller.maxPageSize, (token) =>
    cursors.codec.decode(binding, token, cursors.now),
  );
  const page = <Row, Out>(
    listed: Listed<Row>,
    positionOf: (row: Row) => CursorPosition,
    toOut: (row: Row) => Out,
    pinned: Record<string, string> = {},
  ): Page<Out> => {
    const built = buildPage(request, listed.rows, listed.total, (row) =>
      cursors.codec.encode(binding, positionOf(row), cursors.now),
    );
    const [path = "/"] = caller.url.split("?");
    const params = linkQuery({ ...query, limit: request.perPage }, pinned);
    return {
      data: built.rows.map(toOut),
      pagination: built.pagination,
      links: buildLinks(caller.origin, path, params, built),
    };
  };
  return { request, page };
};
