import type { FastifyRequest } from "fastify";
import { describe, expect, it } from "vitest";
import { manualClock } from "../clock.js";
import { trackVersion } from "../data/data-version.js";
import { responseCache } from "./response-cache.js";

const request = (url: string, { host = "h", pageCap = 25 } = {}) =>
  ({ url, protocol: "http", host, auth: { plan: { max_page_size: pageCap } } }) as unknown as FastifyRequest;
const reply = { type: () => undefined, serializer: () => undefined };

describe("responseCache with revalidation", () => {
  const setup = () => {
    const clock = manualClock(1_000_000);
    let version = "v1";
    let versionReads = 0;
    let builds = 0;
    const answers = responseCache(clock, 1_000, {
      revalidation: {
        version: trackVersion(
          async () => {
            versionReads += 1;
            return version;
          },
          clock,
          1_000,
        ),
        maxAgeMs: 60_000,
        settleMs: 1_000,
      },
    });
    const ask = (url = "/a") => answers(request(url), reply, async () => ({ build: ++builds }));
    return {
      clock,
      ask,
      early: (url = "/a") => answers.early(request(url)),
      setVersion: (v: string) => {
        version = v;
      },
      counts: () => ({ builds, versionReads }),
    };
  };

  it("keeps a settled answer up to maxAgeMs while the version holds, reading the version once per TTL", async () => {
    const t = setup();
    await t.ask();
    t.clock.advance(1_500);
    expect(await t.ask()).toEqual({ build: 2 }); // the first was built before the version had settled
    for (let i = 0; i < 10; i++) {
      t.clock.advance(5_000);
      expect(await t.ask()).toEqual({ build: 2 });
    }
    expect(t.counts().versionReads).toBe(12);
    t.clock.advance(10_000);
    expect(await t.ask()).toEqual({ build: 3 }); // past maxAgeMs
  });

  it("rebuilds after the version moves, and keeps what was built right after only for the TTL", async () => {
    const t = setup();
    await t.ask();
    t.clock.advance(1_500);
    await t.ask();
    t.setVersion("v2");
    t.clock.advance(1_000);
    expect(await t.ask()).toEqual({ build: 3 });
    t.clock.advance(1_001);
    expect(await t.ask()).toEqual({ build: 4 }); // built while the caches below could be stale
    t.clock.advance(5_000);
    expect(await t.ask()).toEqual({ build: 4 });
  });

  it("gives the kept JSON to an early answer exactly while the handler would serve it, building nothing", async () => {
    const t = setup();
    expect(await t.early()).toBeNull();
    await t.ask();
    expect(await t.early()).toBe(JSON.stringify({ build: 1 }));
    expect(await t.early("/b")).toBeNull();
    t.clock.advance(1_500);
    // Past the TTL, built before the version settled: not fresh, for the hook as for the handler.
    expect(await t.early()).toBeNull();
    await t.ask();
    t.clock.advance(30_000);
    expect(await t.early()).toBe(JSON.stringify({ build: 2 }));
    t.setVersion("v2");
    t.clock.advance(1_000);
    expect(await t.early()).toBeNull();
    expect(t.counts().builds).toBe(2);
  });

  it("gives an early answer without a promise unless the data version is due to be read", async () => {
    const t = setup();
    await t.ask();
    t.clock.advance(1_500);
    await t.ask(); // settled: kept while the version holds
    const json = JSON.stringify({ build: 2 });
    expect(t.early()).toBe(json); // within its TTL
    t.clock.advance(1_500);
    const afterTtl = t.early(); // past its TTL, and the version was read over a second ago
    expect(afterTtl).toBeInstanceOf(Promise);
    expect(await afterTtl).toBe(json);
    expect(t.early()).toBe(json); // the version just read
    expect(t.counts().versionReads).toBe(3);
  });
});

describe("responseCache", () => {
  it("keeps an answer per page-size cap and origin under one URL, the parts never run together", async () => {
    const answers = responseCache(manualClock(0), 1_000);
    let builds = 0;
    const ask = (url: string, variant: { host?: string; pageCap?: number }) =>
      answers(request(url, variant), reply, async () => ({ build: ++builds }));
    await ask("/a", {});
    await ask("/a", { pageCap: 100 });
    await ask("/a", { host: "other" });
    await ask("/b/c", { host: "h" });
    expect(answers.early(request("/a"))).toBe(JSON.stringify({ build: 1 }));
    expect(answers.early(request("/a", { pageCap: 100 }))).toBe(JSON.stringify({ build: 2 }));
    expect(answers.early(request("/a", { host: "other" }))).toBe(JSON.stringify({ build: 3 }));
    // A Host header holding a path is another origin, not a prefix of the URL.
    expect(answers.early(request("/c", { host: "h/b" }))).toBeNull();
    expect(await ask("/a", { pageCap: 100 })).toEqual({ build: 2 });
    expect(builds).toBe(4);
  });
});
