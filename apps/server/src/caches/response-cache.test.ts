import { describe, expect, it } from "vitest";
import { manualClock } from "../clock.js";
import { trackVersion } from "./data-version.js";
import { responseCache } from "./response-cache.js";

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
    const ask = async (key = "/a") =>
      JSON.parse((await answers.answer(key, async () => ({ build: ++builds }))).toString()) as unknown;
    return {
      clock,
      ask,
      early: (key = "/a") => {
        const kept = answers.early(key);
        const text = (bytes: Buffer | null) => bytes?.toString("utf8") ?? null;
        return kept instanceof Promise ? kept.then(text) : text(kept);
      },
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

  it("gives the kept answer to an early answer exactly while the handler would serve it, building nothing", async () => {
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
  const text = (kept: unknown) => (Buffer.isBuffer(kept) ? kept.toString("utf8") : kept);

  it("keeps an answer per key as the UTF-8 bytes of its JSON, and builds every answer when off", async () => {
    let builds = 0;
    const build = async () => ({ build: ++builds, name: "ポケモン" });
    const answers = responseCache(manualClock(0), 1_000);
    expect(text(await answers.answer("/a", build))).toBe('{"build":1,"name":"ポケモン"}');
    expect(text(await answers.answer("/b", build))).toBe('{"build":2,"name":"ポケモン"}');
    expect(text(await answers.answer("/a", build))).toBe('{"build":1,"name":"ポケモン"}');
    expect(text(answers.early("/b"))).toBe('{"build":2,"name":"ポケモン"}');
    const off = responseCache(manualClock(0), 0);
    expect(text(await off.answer("/a", build))).toBe('{"build":3,"name":"ポケモン"}');
    expect(text(await off.answer("/a", build))).toBe('{"build":4,"name":"ポケモン"}');
    expect(off.early("/a")).toBeNull();
  });

  it("counts an answer's bytes against its budget: multi-byte text weighs its UTF-8 length", async () => {
    // Each answer below is 100 characters but 292 bytes: a budget of 1,000 bytes keeps three.
    const answers = responseCache(manualClock(0), 1_000, { maxBytes: 1_000 });
    const body = (n: number) => `${String(n).padStart(2, "0")}${"ポ".repeat(96)}`;
    for (let n = 0; n < 5; n++) await answers.answer(`/${n}`, async () => body(n));
    expect(answers.early("/0")).toBeNull();
    expect(answers.early("/1")).toBeNull();
    expect(text(answers.early("/4"))).toBe(JSON.stringify(body(4)));
  });
});
