import { describe, expect, it } from "vitest";
import type { QueryAggregate, SearchSnapshotFields } from "./search-rows.js";
import { buildSearchRows, scoreSearchScope, searchConsoleScope } from "./search-rows.js";

const query = (
  q: Partial<QueryAggregate> & Pick<QueryAggregate, "query" | "searchCount">,
): QueryAggregate => ({
  scopeConsoleId: 0,
  pricingCount: q.searchCount,
  siteSearchCount: 0,
  distinctUsers: 1,
  mobileCount: 0,
  resultCountSum: 0,
  zeroResultCount: 0,
  searches7d: 0,
  searches30d: 0,
  ...q,
});

// max count 100 (mario), max users 80 (kirby, zelda). raw = .8·count/100 + .2·users/80.
const fixture = [
  query({
    query: "mario",
    searchCount: 100,
    pricingCount: 60,
    siteSearchCount: 40,
    distinctUsers: 10,
    mobileCount: 70,
    resultCountSum: 1_200,
    searches7d: 35,
    searches30d: 100,
  }),
  query({
    query: "zelda",
    searchCount: 90,
    distinctUsers: 80,
    mobileCount: 45,
    resultCountSum: 90,
    zeroResultCount: 45,
  }),
  query({
    query: "kirby",
    searchCount: 90,
    distinctUsers: 80,
    zeroResultCount: 9,
    searches7d: 7,
    searches30d: 30,
  }),
  query({
    query: "sonic",
    searchCount: 50,
    distinctUsers: 5,
    zeroResultCount: 10,
    searches7d: 3,
    searches30d: 30,
  }),
  query({
    query: "metroid",
    searchCount: 4,
    distinctUsers: 4,
    zeroResultCount: 4,
    searches7d: 2,
    searches30d: 10,
  }),
];
const rows = scoreSearchScope(0, fixture, { unmetMinSearches: 5 });
const row = (q: string) => rows.find((r) => r.query === q) as SearchSnapshotFields;

describe("search rows: figures", () => {
  it("derives shares and averages from the counts", () => {
    expect(row("mario")).toMatchObject({
      pricingCount: 60,
      siteSearchCount: 40,
      mobileShare: 0.7,
      avgResultCount: 12,
      zeroResultShare: 0,
    });
    expect(row("zelda")).toMatchObject({ mobileShare: 0.5, avgResultCount: 1, zeroResultShare: 0.5 });
  });

  it("momentum against the whole 30 days: mario 30·35/(7·100) = 1.5 rising, kirby 1 steady, metroid .8571 steady, sonic .4286 cooling, zelda unknown", () => {
    expect(rows.map((r) => [r.query, r.momentumValue, r.momentumLabel])).toEqual([
      ["mario", 1.5, "rising"],
      ["kirby", 1, "steady"],
      ["zelda", null, "unknown"],
      ["sonic", 0.4286, "cooling"],
      ["metroid", 0.8571, "steady"],
    ]);
  });

  it("demand score: top by volume is 100; sonic .4125/.825 = 50; metroid .042/.825 = 5.09 → 5", () => {
    expect(row("mario").demandScore).toBe(100);
    expect(row("sonic").demandScore).toBe(50);
    expect(row("metroid").demandScore).toBe(5);
  });

  it("clamps to 100 a query whose reach lifts it above the top one (kirby .92 > mario .825)", () => {
    expect(row("kirby").demandScore).toBe(100);
    expect(row("zelda").demandScore).toBe(100);
  });
});

describe("search rows: ranks", () => {
  it("volume: count desc, then distinct users desc, then query asc (kirby before zelda)", () => {
    expect(rows.map((r) => [r.query, r.rankVolume])).toEqual([
      ["mario", 1],
      ["kirby", 2],
      ["zelda", 3],
      ["sonic", 4],
      ["metroid", 5],
    ]);
  });

  it("momentum: value desc, every row ranked, no baseline last", () => {
    // mario 30·35/(7·100) = 1.5, kirby 1, metroid 0.8571, sonic 0.4286, zelda null (no search in 30 days).
    expect(Object.fromEntries(rows.map((r) => [r.query, [r.momentumValue, r.rankMomentum]]))).toEqual({
      mario: [1.5, 1],
      kirby: [1, 2],
      metroid: [0.8571, 3],
      sonic: [0.4286, 4],
      zelda: [null, 5],
    });
  });

  it("unmet: only 5+ searches; zero-result share desc, then count desc", () => {
    expect(Object.fromEntries(rows.map((r) => [r.query, r.rankUnmet]))).toEqual({
      zelda: 1,
      sonic: 2,
      kirby: 3,
      mario: 4,
      metroid: null,
    });
  });

  it("unmet threshold is inclusive: exactly 5 searches qualifies, 4 does not", () => {
    const scoped = scoreSearchScope(
      0,
      [
        query({ query: "a", searchCount: 5, zeroResultCount: 5 }),
        query({ query: "b", searchCount: 4, zeroResultCount: 4 }),
      ],
      { unmetMinSearches: 5 },
    );
    expect(scoped.map((r) => [r.query, r.rankUnmet])).toEqual([
      ["a", 1],
      ["b", null],
    ]);
  });

  it("breaks unmet and momentum ties by count, then query", () => {
    const scoped = scoreSearchScope(
      0,
      [
        query({ query: "b", searchCount: 10, zeroResultCount: 5, searches7d: 7, searches30d: 30 }),
        query({ query: "a", searchCount: 10, zeroResultCount: 5, searches7d: 7, searches30d: 30 }),
        query({ query: "c", searchCount: 20, zeroResultCount: 10, searches7d: 7, searches30d: 30 }),
      ],
      { unmetMinSearches: 5 },
    );
    const order = (key: "rankUnmet" | "rankMomentum") =>
      [...scoped].sort((x, y) => (x[key] ?? 0) - (y[key] ?? 0)).map((r) => r.query);
    expect(order("rankUnmet")).toEqual(["c", "a", "b"]);
    expect(order("rankMomentum")).toEqual(["c", "a", "b"]);
  });

  it("orders momentum ties by count then query, not by distinct users; a null momentum after 0", () => {
    const scoped = scoreSearchScope(
      0,
      [
        query({ query: "none", searchCount: 50, searches7d: 0, searches30d: 0 }),
        query({ query: "b", searchCount: 10, distinctUsers: 9, searches7d: 7, searches30d: 30 }),
        query({ query: "a", searchCount: 10, distinctUsers: 1, searches7d: 7, searches30d: 30 }),
        query({ query: "gone", searchCount: 1, searches7d: 0, searches30d: 4 }),
      ],
      { unmetMinSearches: 5 },
    );
    const byMomentum = [...scoped].sort((x, y) => (x.rankMomentum ?? 0) - (y.rankMomentum ?? 0));
    expect(byMomentum.map((r) => [r.query, r.momentumValue])).toEqual([
      ["a", 1],
      ["b", 1],
      ["gone", 0],
      ["none", null],
    ]);
  });
});

describe("search rows: scopes and edge cases", () => {
  it("an empty period has no rows", () => {
    expect(scoreSearchScope(0, [], { unmetMinSearches: 5 })).toEqual([]);
    expect(buildSearchRows([], { unmetMinSearches: 5 })).toEqual([]);
  });

  it("scores each scope against its own top query", () => {
    const built = buildSearchRows(
      [
        query({ scopeConsoleId: 2, query: "sonic", searchCount: 10 }),
        query({ scopeConsoleId: 0, query: "mario", searchCount: 40 }),
        query({ scopeConsoleId: 0, query: "sonic", searchCount: 10 }),
      ],
      { unmetMinSearches: 5 },
    );
    expect(built.map((r) => [r.scopeConsoleId, r.query, r.rankVolume, r.demandScore])).toEqual([
      [0, "mario", 1, 100],
      [0, "sonic", 2, 40], // .8·10/40 + .2·1/1 = .4 over mario's .8 + .2 = 1
      [2, "sonic", 1, 100],
    ]);
  });

  it("refuses a query twice in one scope", () => {
    expect(() =>
      buildSearchRows([query({ query: "x", searchCount: 1 }), query({ query: "x", searchCount: 2 })], {
        unmetMinSearches: 5,
      }),
    ).toThrow(RangeError);
  });

  it("puts a search in its console, else its game's console, else no console scope", () => {
    const consoleOf = (gameId: number) => (gameId === 101 ? 1 : undefined);
    expect(searchConsoleScope({ consoleId: 3, gameId: 101 }, consoleOf)).toBe(3);
    expect(searchConsoleScope({ consoleId: null, gameId: 101 }, consoleOf)).toBe(1);
    expect(searchConsoleScope({ consoleId: null, gameId: null }, consoleOf)).toBeNull();
    expect(searchConsoleScope({ consoleId: null, gameId: 999 }, consoleOf)).toBeNull();
  });
});

describe("search rows: orders on many ties", () => {
  // A small deterministic generator: counts from a narrow range so most queries tie on every number.
  let state = 12345;
  const next = (n: number) => {
    state = (Math.imul(state, 1103515245) + 12345) >>> 0;
    return (state >>> 8) % n;
  };
  const alphabet = ["a", "b", "é", "z", "\u{1F3AE}", "\uFF21", " "];
  const queries = new Map<string, QueryAggregate>();
  while (queries.size < 2_000) {
    const text = Array.from({ length: 1 + next(5) }, () => alphabet[next(alphabet.length)]).join("");
    const searchCount = 1 + next(8);
    const distinctUsers = 1 + next(searchCount);
    const zeroResultCount = next(2) * next(searchCount + 1);
    const searches7d = next(3);
    // 0..8 searches in the rest of the 30 days: a few queries have none at all (null momentum).
    const searches30d = searches7d + next(9);
    queries.set(
      text,
      query({ query: text, searchCount, distinctUsers, zeroResultCount, searches7d, searches30d }),
    );
  }
  const scored = scoreSearchScope(0, [...queries.values()], { unmetMinSearches: 5 });

  // The documented orders, spelled out as full comparators (docs/scoring.md).
  const cmp = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
  const volume = (a: SearchSnapshotFields, b: SearchSnapshotFields) =>
    b.searchCount - a.searchCount || b.distinctUsers - a.distinctUsers || cmp(a.query, b.query);
  const expectRanks = (
    key: "rankVolume" | "rankMomentum" | "rankUnmet",
    include: (r: SearchSnapshotFields) => boolean,
    compare: (a: SearchSnapshotFields, b: SearchSnapshotFields) => number,
  ) => {
    const expected = scored.filter(include).sort(compare);
    expect(expected.length).toBeGreaterThan(100);
    expected.forEach((r, index) => {
      expect(r[key], `${key} of ${JSON.stringify(r.query)}`).toBe(index + 1);
    });
    for (const r of scored.filter((x) => !include(x))) expect(r[key]).toBeNull();
  };

  it("volume: count desc, users desc, query in code units (astral characters included)", () => {
    expectRanks("rankVolume", () => true, volume);
    expect(scored.map((r) => r.rankVolume)).toEqual(scored.map((_, i) => i + 1));
  });

  it("momentum: every row, value desc with nulls last, count desc, query", () => {
    expect(scored.some((r) => r.momentumValue === null)).toBe(true);
    expectRanks(
      "rankMomentum",
      () => true,
      (a, b) =>
        (b.momentumValue ?? -1) - (a.momentumValue ?? -1) ||
        b.searchCount - a.searchCount ||
        cmp(a.query, b.query),
    );
  });

  it("unmet: share desc, count desc, query", () => {
    expectRanks(
      "rankUnmet",
      (r) => r.searchCount >= 5,
      (a, b) =>
        b.zeroResultShare - a.zeroResultShare || b.searchCount - a.searchCount || cmp(a.query, b.query),
    );
  });
});
