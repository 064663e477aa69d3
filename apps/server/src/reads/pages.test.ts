import { type PaginationQuery, PLANS } from "@gmi/contract";
import { describe, expect, it } from "vitest";
import type { AuthContext } from "../domain/auth/authorize.js";
import { ApiError } from "../errors.js";
import type { Caller } from "./caller.js";
import { pagingOf } from "./pages.js";

const caller = (url: string): Caller => ({
  auth: {
    keyId: 1,
    keyName: "k",
    lastFour: "abcd",
    scopes: [],
    expiresAt: null,
    revokedAt: null,
    organization: { id: 1, name: "o", status: "active" },
    client: null,
    plan: PLANS.free,
  } satisfies AuthContext,
  origin: "https://api.example",
  url,
});
const paging = { cursorSecret: "secret", now: 1_000_000 };
const query = (over: Partial<PaginationQuery> = {}): PaginationQuery => ({
  limit: 100,
  page: 1,
  paginate: "page",
  ...over,
});
const rows = Array.from({ length: 30 }, (_, i) => ({ id: i + 1 }));

describe("pagingOf", () => {
  it("caps the page at the caller's plan and links under the caller's origin and path, with the resolved query", () => {
    const { request, page } = pagingOf(paging, caller("/api/v1/consoles?limit=100"), query(), {
      route: "consoles.list",
      scope: {},
    });
    expect(request).toEqual({ mode: "page", page: 1, perPage: PLANS.free.max_page_size, offset: 0 });
    const built = page(
      { rows: rows.slice(0, 25), total: 30 },
      (r) => [r.id],
      (r) => r.id,
    );
    expect(built.data).toHaveLength(25);
    expect(built.pagination).toMatchObject({ mode: "page", page: 1, per_page: 25, total: 30, last_page: 2 });
    expect(built.links).toEqual({
      next: "https://api.example/api/v1/consoles?limit=25&page=2&paginate=page",
      prev: null,
    });
  });

  it("resumes a cursor after its position, and refuses it on another route", () => {
    const binding = { route: "games.titles", scope: {} };
    const first = pagingOf(paging, caller("/t?paginate=cursor"), query({ paginate: "cursor" }), binding);
    const built = first.page(
      { rows: rows.slice(0, 26), total: 30 },
      (r) => [r.id],
      (r) => r,
    );
    const cursor = built.pagination.mode === "cursor" ? built.pagination.next_cursor : null;
    expect(cursor).toEqual(expect.any(String));
    const next = pagingOf(paging, caller("/t"), query({ cursor: cursor ?? "" }), binding);
    expect(next.request).toEqual({ mode: "cursor", perPage: 25, after: [25] });
    expect(() =>
      pagingOf(paging, caller("/t"), query({ cursor: cursor ?? "" }), { route: "games.slugs", scope: {} }),
    ).toThrow(ApiError);
  });
});
