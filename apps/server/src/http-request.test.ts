import type { FastifyRequest } from "fastify";
import { describe, expect, it } from "vitest";
import { answerKeyOf } from "./http-request.js";

const request = (url: string, { host = "h", pageCap = 25 } = {}) =>
  ({ url, protocol: "http", host, auth: { plan: { max_page_size: pageCap } } }) as unknown as FastifyRequest;

describe("answerKeyOf", () => {
  it("tells answers apart by page-size cap, origin and URL, the parts never running together", () => {
    const keys = [
      answerKeyOf(request("/a")),
      answerKeyOf(request("/a", { pageCap: 100 })),
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
});
