import type { FastifyRequest } from "fastify";
import { describe, expect, it } from "vitest";
import { answerKeyOf, pageSizeKey } from "./http-request.js";

const request = (url: string, { host = "h", pageCap = 25 } = {}) =>
  ({ url, protocol: "http", host, auth: { plan: { max_page_size: pageCap } } }) as unknown as FastifyRequest;

describe("answerKeyOf", () => {
  it("tells answers apart by page size, origin and URL, the parts never running together", () => {
    const keys = [
      answerKeyOf(request("/a")),
      answerKeyOf(request("/a", { pageCap: 10 })),
      answerKeyOf(request("/a", { host: "other" })),
      answerKeyOf(request("/b/c")),
      // A Host header holding a path is another origin, not a prefix of the URL.
      answerKeyOf(request("/c", { host: "h/b" })),
    ];
    expect(new Set(keys).size).toBe(keys.length);
    expect(answerKeyOf(request("/a"))).toBe(keys[0]);
  });

  it("refuses a request that was not authenticated", () => {
    expect(() => answerKeyOf({ url: "/a", auth: null } as unknown as FastifyRequest)).toThrow();
  });

  it("shares an answer between plans whose page size is the same", () => {
    expect(answerKeyOf(request("/a?page=2", { pageCap: 200 }))).toBe(answerKeyOf(request("/a?page=2")));
    expect(answerKeyOf(request("/a?limit=50", { pageCap: 100 }))).toBe(
      answerKeyOf(request("/a?limit=50", { pageCap: 200 })),
    );
    expect(answerKeyOf(request("/a?limit=50", { pageCap: 50 }))).toBe(
      answerKeyOf(request("/a?limit=50", { pageCap: 200 })),
    );
    expect(answerKeyOf(request("/a?limit=100", { pageCap: 50 }))).not.toBe(
      answerKeyOf(request("/a?limit=100", { pageCap: 100 })),
    );
  });
});

describe("pageSizeKey", () => {
  it("is the page size resolvePageRequest serves: limit, or the default, capped by the plan", () => {
    expect(pageSizeKey("/a", 100)).toBe("25");
    expect(pageSizeKey("/a?page=3&sort=demand", 100)).toBe("25");
    expect(pageSizeKey("/a?page=3", 10)).toBe("10");
    expect(pageSizeKey("/a?limit=40", 100)).toBe("40");
    expect(pageSizeKey("/a?page=2&limit=40&sort=demand", 25)).toBe("25");
    expect(pageSizeKey("/a?limit=400", 200)).toBe("200");
    expect(pageSizeKey("/a?xlimit=400&page=1", 200)).toBe("25");
  });

  it("falls back to the plan's cap where the contract could read the query otherwise", () => {
    for (const url of ["/a?li%6Dit=50", "/a?limit=50&limit=60", "/a?limit=5e1", "/a?limit=+50", "/a?limit="])
      expect([pageSizeKey(url, 50), pageSizeKey(url, 100)], url).toEqual(["c50", "c100"]);
  });
});
