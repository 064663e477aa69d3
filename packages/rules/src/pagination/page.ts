import type { Pagination, PaginationQuery } from "@gmi/contract";
import type { CursorPosition } from "./cursor.js";

/** A resolved page request: what the data layer needs to fetch one page. */
export type PageRequest =
  | { mode: "page"; page: number; perPage: number; offset: number }
  | { mode: "cursor"; perPage: number; after: CursorPosition | null };

/**
 * `limit` is capped silently at the plan's max_page_size (spec, Limits rule 6). A `cursor` always
 * means cursor mode, whatever `paginate` says: it carries its own position, and ignoring it would
 * silently restart the walk (docs/decisions.md).
 */
export const resolvePageRequest = (
  query: Pick<PaginationQuery, "limit" | "page" | "cursor" | "paginate">,
  maxPageSize: number,
  decode: (token: string) => CursorPosition,
): PageRequest => {
  const perPage = Math.max(1, Math.min(query.limit, maxPageSize));
  if (query.cursor !== undefined) return { mode: "cursor", perPage, after: decode(query.cursor) };
  if (query.paginate === "cursor") return { mode: "cursor", perPage, after: null };
  return { mode: "page", page: query.page, perPage, offset: (query.page - 1) * perPage };
};

/** What a list read returns: the rows fetched for one page (a look-ahead row included) and the list's total. */
export type Listed<Row> = { rows: Row[]; total: number };

/** How many rows to fetch: one extra in cursor mode tells whether a next page exists. */
export const fetchSize = (request: PageRequest) =>
  request.mode === "cursor" ? request.perPage + 1 : request.perPage;

export type PageResult<Row> = {
  rows: Row[];
  pagination: Pagination;
  next: PageTarget | null;
  prev: PageTarget | null;
};

/** What a link points at: a page number or a cursor. */
export type PageTarget = { page: number } | { cursor: string };

/**
 * Turns fetched rows into the page: trims the look-ahead row, computes `meta.pagination` and the
 * targets of `links.next`/`prev`. Cursor mode is forward only (prev is always null).
 */
export const buildPage = <Row>(
  request: PageRequest,
  fetched: Row[],
  total: number,
  cursorFor: (row: Row) => string,
): PageResult<Row> => {
  if (request.mode === "page") {
    const lastPage = Math.max(1, Math.ceil(total / request.perPage));
    return {
      rows: fetched,
      pagination: { mode: "page", page: request.page, per_page: request.perPage, total, last_page: lastPage },
      next: request.page < lastPage ? { page: request.page + 1 } : null,
      prev: request.page > 1 ? { page: Math.min(request.page - 1, lastPage) } : null,
    };
  }
  const hasMore = fetched.length > request.perPage;
  const rows = hasMore ? fetched.slice(0, request.perPage) : fetched;
  const last = rows.at(-1);
  const nextCursor = hasMore && last !== undefined ? cursorFor(last) : null;
  return {
    rows,
    pagination: { mode: "cursor", per_page: request.perPage, total, next_cursor: nextCursor },
    next: nextCursor ? { cursor: nextCursor } : null,
    prev: null,
  };
};
