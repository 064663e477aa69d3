import { PLANS } from "@gmi/contract";
import type { RouteName } from "../types.js";
import type { Reply } from "./reply.js";
import { errorReply } from "./reply.js";

const encode = (value: object) =>
  btoa(JSON.stringify(value)).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
const decode = (text: string): unknown => {
  try {
    return JSON.parse(atob(text.replace(/-/g, "+").replace(/_/g, "/")));
  } catch {
    return undefined;
  }
};

/** Not part of a cursor's scope: the position, and the date (links pin it, as the server's do). */
const PAGING = new Set(["limit", "page", "cursor", "paginate", "date"]);

export interface ListQuery {
  limit: number;
  page: number;
  cursor?: string | undefined;
  paginate: "page" | "cursor";
}

/**
 * Page and cursor pagination as the server does it (docs/decisions.md): the plan caps `limit`
 * silently, a cursor always means cursor mode, cursors are bound to their list and scope (a
 * transplanted one is a 422), cursor mode is forward only. Links repeat every parameter as resolved
 * (`limit` the page size served) and pin the answer's `period_date`.
 */
export const paginate = <Row>(
  route: RouteName,
  rows: Row[],
  query: ListQuery,
  url: URL,
  plan: keyof typeof PLANS,
  meta: Record<string, unknown>,
): Reply => {
  const perPage = Math.min(query.limit, PLANS[plan].max_page_size);
  const scope = [...url.searchParams.entries()]
    .filter(([key]) => !PAGING.has(key))
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([key, value]) => `${key}=${value}`)
    .join("&");
  const resolved: Record<string, unknown> = { ...query, limit: perPage, date: meta.period_date };
  const link = (changes: Record<string, string>) => {
    const next = new URL(url.pathname, url.origin);
    for (const [key, value] of Object.entries(resolved)) {
      if (value !== undefined) next.searchParams.set(key, String(value));
    }
    // Only the position changes: a page link drops the cursor, a cursor link the page.
    for (const key of ["page", "cursor"]) if (!(key in changes)) next.searchParams.delete(key);
    for (const [key, value] of Object.entries(changes)) next.searchParams.set(key, value);
    return next.href;
  };

  if (query.cursor !== undefined || query.paginate === "cursor") {
    let offset = 0;
    if (query.cursor !== undefined) {
      const token = decode(query.cursor) as { r?: string; s?: string; o?: number } | undefined;
      if (!token || token.r !== route || token.s !== scope || !Number.isInteger(token.o)) {
        return errorReply("validation_failed", "The cursor is not valid for this list", {
          issues: [{ location: "query", field: "cursor", message: "is not a cursor of this list and scope" }],
        });
      }
      offset = token.o as number;
    }
    const end = offset + perPage;
    const nextCursor = end < rows.length ? encode({ r: route, s: scope, o: end }) : null;
    return {
      status: 200,
      body: {
        data: rows.slice(offset, end),
        meta: {
          ...meta,
          pagination: { mode: "cursor", per_page: perPage, total: rows.length, next_cursor: nextCursor },
        },
        links: { next: nextCursor ? link({ paginate: "cursor", cursor: nextCursor }) : null, prev: null },
      },
    };
  }

  const lastPage = Math.max(1, Math.ceil(rows.length / perPage));
  const page = query.page;
  return {
    status: 200,
    body: {
      data: rows.slice((page - 1) * perPage, page * perPage),
      meta: {
        ...meta,
        pagination: { mode: "page", page, per_page: perPage, total: rows.length, last_page: lastPage },
      },
      links: {
        next: page < lastPage ? link({ page: String(page + 1) }) : null,
        prev: page > 1 ? link({ page: String(Math.min(page - 1, lastPage)) }) : null,
      },
    },
  };
};
