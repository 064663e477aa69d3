import { describe, expect, it } from "vitest";
import { compareAnswers } from "./compare.js";
import type { Answer } from "./scenario.js";

const answer = (body: unknown, headers: Record<string, string> = {}, status = 200): Answer => ({
  status,
  headers: {
    "content-type": "application/json; charset=utf-8",
    "x-request-id": crypto.randomUUID(),
    "x-ratelimit-limit": "600",
    ...headers,
  },
  body: JSON.stringify(body),
});

describe("compareAnswers", () => {
  it("reports every differing leaf by its path, and nothing for equal answers", () => {
    const server = answer({ data: [{ id: 1, name: "a" }], meta: { total: 1 } });
    expect(compareAnswers(server, answer(JSON.parse(server.body)), { cors: false })).toEqual([]);
    const mock = answer({ data: [{ id: 1, name: "b" }, { id: 2 }], meta: {} }, { "x-ratelimit-limit": "30" });
    expect(compareAnswers(server, mock, { cors: false })).toEqual([
      { field: "header x-ratelimit-limit", server: "600", mock: "30" },
      { field: "data.length", server: 1, mock: 2 },
      { field: "data[0].name", server: "a", mock: "b" },
      { field: "meta.total", server: 1, mock: undefined },
    ]);
  });

  it("ignores only what allowed.ts names: request ids, link origins, cursor values", () => {
    const server = answer({
      error: { code: "server_error", message: "x", details: { request_id: "r1" } },
      links: { next: "http://127.0.0.1:1234/api/v1/games/titles?page=2&cursor=AAA", prev: null },
      meta: { pagination: { next_cursor: "AAA" } },
    });
    const mock = answer({
      error: { code: "server_error", message: "x", details: { request_id: "r2" } },
      links: { next: "https://main.parity.test/api/v1/games/titles?page=2&cursor=BBB", prev: null },
      meta: { pagination: { next_cursor: "BBB" } },
    });
    expect(compareAnswers(server, mock, { cors: false })).toEqual([]);
    const noCursor = answer({ ...JSON.parse(mock.body), meta: { pagination: { next_cursor: null } } });
    expect(compareAnswers(server, noCursor, { cors: false })).toEqual([
      { field: "meta.pagination.next_cursor", server: "(a cursor)", mock: null },
    ]);
    const otherPath = answer({
      ...JSON.parse(mock.body),
      links: { next: "https://m.test/api/v1/games/slugs?page=2" },
    });
    expect(compareAnswers(server, otherPath, { cors: false }).map((d) => d.field)).toEqual([
      "links.next.path",
      "links.next.query.cursor",
      "links.prev",
    ]);
  });

  it("compares header lists as sets, and CORS headers only when asked", () => {
    const server = answer({}, { "access-control-allow-methods": "GET, POST, OPTIONS" });
    const mock = answer({}, { "access-control-allow-methods": "options,get, post" });
    expect(compareAnswers(server, mock, { cors: true })).toEqual([]);
    const fewer = answer({}, { "access-control-allow-methods": "GET" });
    expect(compareAnswers(server, fewer, { cors: false })).toEqual([]);
    expect(compareAnswers(server, fewer, { cors: true })).toHaveLength(1);
  });

  it("requires an X-Request-Id UUID on both sides", () => {
    const server = answer({});
    const mock = { ...answer({}), headers: { ...answer({}).headers, "x-request-id": "nope" } };
    expect(compareAnswers(server, mock, { cors: false })).toEqual([
      { field: "header x-request-id", server: "a UUID", mock: "not a UUID: nope" },
    ]);
  });
});
