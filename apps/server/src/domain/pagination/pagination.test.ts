import { describe, expect, it } from "vitest";
import { ApiError } from "../../errors.js";
import { CURSOR_MAX_AGE_MS, decodeCursor, encodeCursor } from "./cursor.js";
import { buildLinks, linkQuery } from "./links.js";
import { buildPage, resolvePageRequest } from "./page.js";

const SECRET = "unit-secret-unit-secret-unit-secret";
const binding = { route: "games.byConsole", scope: { console_id: 2 } };
const now = Date.UTC(2026, 0, 1);

const expectCursorError = (fn: () => unknown) => {
  try {
    fn();
    expect.unreachable();
  } catch (error) {
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).toBody().error).toMatchObject({
      code: "validation_failed",
      details: { issues: [{ location: "query", field: "cursor" }] },
    });
  }
};

describe("cursors", () => {
  it("round-trip a keyset position", () => {
    const token = encodeCursor(SECRET, binding, ["Chrono Trigger", 101], now);
    expect(token).toMatch(/^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/);
    expect(decodeCursor(SECRET, binding, token, now + 1000)).toEqual(["Chrono Trigger", 101]);
  });

  it("refuse forged, tampered, foreign and stale cursors", () => {
    const token = encodeCursor(SECRET, binding, ["A", 1], now);
    expectCursorError(() => decodeCursor(SECRET, binding, "garbage", now));
    expectCursorError(() => decodeCursor("another-secret-another-secret-xx", binding, token, now));
    const [body, sig] = token.split(".");
    const forgedBody = Buffer.from(
      JSON.stringify({ v: 1, r: binding.route, s: "[]", p: ["Z", 9], t: now / 1000 }),
    ).toString("base64url");
    expectCursorError(() => decodeCursor(SECRET, binding, `${forgedBody}.${sig}`, now));
    expectCursorError(() => decodeCursor(SECRET, binding, `${body}.${sig}x`, now));
    expectCursorError(() => decodeCursor(SECRET, { ...binding, route: "games.titles" }, token, now));
    expectCursorError(() => decodeCursor(SECRET, { ...binding, scope: { console_id: 3 } }, token, now));
    expectCursorError(() => decodeCursor(SECRET, binding, token, now + CURSOR_MAX_AGE_MS + 1000));
  });
});

describe("page requests", () => {
  const decode = () => ["x", 1];
  it("caps limit silently at the plan's max page size", () => {
    expect(resolvePageRequest({ limit: 500, page: 3, paginate: "page" }, 25, decode)).toEqual({
      mode: "page",
      page: 3,
      perPage: 25,
      offset: 50,
    });
  });
  it("a cursor always means cursor mode", () => {
    expect(resolvePageRequest({ limit: 10, page: 1, paginate: "page", cursor: "t" }, 25, decode)).toEqual({
      mode: "cursor",
      perPage: 10,
      after: ["x", 1],
    });
    expect(resolvePageRequest({ limit: 10, page: 1, paginate: "cursor" }, 25, decode)).toMatchObject({
      after: null,
    });
  });
});

describe("buildPage", () => {
  it("page mode: last_page at least 1, next/prev targets", () => {
    const empty = buildPage({ mode: "page", page: 1, perPage: 10, offset: 0 }, [], 0, () => "");
    expect(empty.pagination).toEqual({ mode: "page", page: 1, per_page: 10, total: 0, last_page: 1 });
    expect([empty.next, empty.prev]).toEqual([null, null]);
    const middle = buildPage({ mode: "page", page: 2, perPage: 10, offset: 10 }, [1], 35, () => "");
    expect([middle.next, middle.prev]).toEqual([{ page: 3 }, { page: 1 }]);
  });

  it("cursor mode: trims the look-ahead row and encodes the last served row", () => {
    const page = buildPage({ mode: "cursor", perPage: 2, after: null }, [1, 2, 3], 3, (row) => `c${row}`);
    expect(page.rows).toEqual([1, 2]);
    expect(page.pagination).toEqual({ mode: "cursor", per_page: 2, total: 3, next_cursor: "c2" });
    const last = buildPage({ mode: "cursor", perPage: 2, after: ["x"] }, [3], 3, (row) => `c${row}`);
    expect(last.pagination).toMatchObject({ next_cursor: null });
    expect(last.prev).toBeNull();
  });
});

describe("links", () => {
  it("are absolute, repeat the resolved parameters with the pinned ones over them, and set only the position", () => {
    const query = linkQuery(
      {
        period: "7d",
        date: undefined,
        console_id: undefined,
        limit: 5,
        page: 2,
        cursor: "old",
        sort: "demand",
      },
      { date: "2026-11-19" },
    );
    expect(
      buildLinks("https://api.example.com", "/api/v1/x", query, { next: { page: 3 }, prev: { page: 1 } }),
    ).toEqual({
      next: "https://api.example.com/api/v1/x?period=7d&date=2026-11-19&limit=5&page=3&sort=demand",
      prev: "https://api.example.com/api/v1/x?period=7d&date=2026-11-19&limit=5&page=1&sort=demand",
    });
    const cursorLink = buildLinks("http://h:1", "/p", linkQuery({ limit: 5, page: 4, paginate: "page" }), {
      next: { cursor: "a.b" },
      prev: null,
    });
    expect(cursorLink.next).toBe("http://h:1/p?limit=5&paginate=cursor&cursor=a.b");
  });
});
