import type { Links, Pagination, PaginationQuery } from "@gmi/contract";
import type { CursorBinding, CursorPosition } from "../domain/pagination/cursor.js";
import { decodeCursor, encodeCursor } from "../domain/pagination/cursor.js";
import { buildLinks, linkQuery } from "../domain/pagination/links.js";
import { buildPage, type Listed, type PageRequest, resolvePageRequest } from "../domain/pagination/page.js";
import type { Caller } from "./caller.js";
import type { ReadDeps } from "./deps.js";

/** What a list read needs to page: the cursor secret and the time cursors are stamped and checked at. */
export type Paging = { cursorSecret: string; now: number };

/** One page of a list, before its `meta` is written: rows, pagination, links. */
export type Page<Out> = { data: Out[]; pagination: Pagination; links: Links };

/**
 * The paging of every list (catalog and analytics): the page request under the caller's plan cap,
 * with a cursor bound to `binding` (its route and scope), and `page(...)` turning the rows read into
 * the page of the answer. `query` is the request's whole parsed query: the links repeat every
 * parameter of it as resolved (domain/pagination/links.ts), with `pinned` over them.
 */
export const pagingOf = (
  paging: Paging,
  caller: Caller,
  query: PaginationQuery & Record<string, unknown>,
  binding: CursorBinding,
) => {
  const request: PageRequest = resolvePageRequest(query, caller.auth.plan.max_page_size, (token) =>
    decodeCursor(paging.cursorSecret, binding, token, paging.now),
  );
  const page = <Row, Out>(
    listed: Listed<Row>,
    positionOf: (row: Row) => CursorPosition,
    toOut: (row: Row) => Out,
    pinned: Record<string, string> = {},
  ): Page<Out> => {
    const built = buildPage(request, listed.rows, listed.total, (row) =>
      encodeCursor(paging.cursorSecret, binding, positionOf(row), paging.now),
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

/** `pagingOf` at the read's time, with the app's cursor secret. */
export const listPaging = (
  reads: Pick<ReadDeps, "cursorSecret" | "clock">,
  caller: Caller,
  query: PaginationQuery & Record<string, unknown>,
  binding: CursorBinding,
) => pagingOf({ cursorSecret: reads.cursorSecret, now: reads.clock.now() }, caller, query, binding);
