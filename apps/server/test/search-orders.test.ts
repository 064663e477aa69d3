import { describe, expect, it } from "vitest";
import { readSearchPage } from "../src/data/analytics-reads.js";
import { ORDER_PAGE_SIZE, searchOrderPages } from "../src/data/search-orders.js";
import type { SearchSnapshotFields } from "../src/domain/analytics/search-rows.js";
import { replaceSnapshot } from "../src/rollup/snapshot-writer.js";
import { useTestDatabase, withClient } from "./helpers/setup.js";

const db = useTestDatabase({ catalog: false });

/** A fixed shuffle of 1..n (a stride coprime with n visits every position once). */
const shuffled = (n: number, stride: number) => Array.from({ length: n }, (_, i) => ((i * stride) % n) + 1);

/** Scope 0: 2,500 queries, ranked in shuffled momentum order; every third ranked as unmet. */
const scopeRows = (scopeConsoleId: number, count: number): SearchSnapshotFields[] => {
  const momentum = shuffled(count, 7);
  const unmetMembers = Array.from({ length: count }, (_, i) => i).filter((i) => i % 3 === 0);
  const unmetRanks = shuffled(unmetMembers.length, 11);
  const unmetOf = new Map(unmetMembers.map((i, k) => [i, unmetRanks[k] as number]));
  return Array.from({ length: count }, (_, i) => ({
    scopeConsoleId,
    query: `query ${scopeConsoleId}-${i}`,
    searchCount: count - i,
    pricingCount: 0,
    siteSearchCount: count - i,
    distinctUsers: 1,
    mobileShare: 0,
    avgResultCount: 0,
    zeroResultCount: 0,
    zeroResultShare: 0,
    momentumValue: 1,
    momentumLabel: "steady",
    demandScore: 1,
    rankVolume: i + 1,
    rankMomentum: momentum[i] as number,
    rankUnmet: unmetOf.get(i) ?? null,
    mobileCount: 0,
    resultCountSum: 0,
  }));
};

const rows = [...scopeRows(0, 2_500), ...scopeRows(3, 40)];

/** The queries of ranks from..from+count-1 of a sort, straight from the rows. */
const expectedSlice = (scope: number, rank: "rankMomentum" | "rankUnmet", from: number, count: number) =>
  rows
    .filter((r) => r.scopeConsoleId === scope && r[rank] !== null && (r[rank] as number) >= from)
    .filter((r) => (r[rank] as number) < from + count)
    .sort((a, b) => (a[rank] as number) - (b[rank] as number))
    .map((r) => r.query);

describe("search order pages", () => {
  it("list each scope's volume ranks in sort order, a page per ORDER_PAGE_SIZE ranks", () => {
    const pages = searchOrderPages(rows);
    const momentum0 = pages.filter((p) => p.scopeConsoleId === 0 && p.sort === "momentum");
    expect(momentum0.map((p) => [p.page, p.volumeRanks.length])).toEqual([
      [0, ORDER_PAGE_SIZE],
      [1, ORDER_PAGE_SIZE],
      [2, 500],
    ]);
    const flat = momentum0.flatMap((p) => p.volumeRanks);
    flat.forEach((volumeRank, position) => {
      expect(rows[volumeRank - 1]?.rankMomentum).toBe(position + 1);
    });
    expect(pages.filter((p) => p.scopeConsoleId === 3).map((p) => [p.sort, p.volumeRanks.length])).toEqual([
      ["momentum", 40],
      ["unmet", 14],
    ]);
  });

  it("refuse ranks with a hole", () => {
    const broken = scopeRows(0, 5).map((r) => (r.rankMomentum === 2 ? { ...r, rankMomentum: 9 } : r));
    expect(() => searchOrderPages(broken)).toThrow(RangeError);
    const twice = scopeRows(0, 5).map((r) => (r.rankMomentum === 2 ? { ...r, rankMomentum: 1 } : r));
    expect(() => searchOrderPages(twice)).toThrow(/not dense/);
    const split = [...scopeRows(0, 2), ...scopeRows(3, 2), ...scopeRows(0, 2)];
    expect(() => searchOrderPages(split)).toThrow(/not together/);
  });
});

describe.each([true, false])("search slices through order pages (copy: %s)", (copy) => {
  const date = copy ? "2026-11-20" : "2026-11-21";
  const asked = { period: "30d" as const, date, today: "2026-11-30" };
  const write = () =>
    withClient(db(), (client) =>
      replaceSnapshot(
        client,
        { period: "30d", date, durationMs: 1 },
        { liquidity: [], searches: rows, conditions: [] },
        { copy: copy && !db().embedded },
      ),
    );

  it("read any rank range, across page boundaries, in sort order", async () => {
    const id = await write();
    for (const [sort, rank] of [
      ["momentum", "rankMomentum"],
      ["unmet", "rankUnmet"],
    ] as const) {
      const slices: Array<[number, number]> = [
        [1, 50],
        [990, 20],
        [1000, 1],
        [1001, 100],
        [1990, 30],
        [2450, 100],
        [820, 10],
      ];
      for (const [from, count] of slices) {
        const page = await readSearchPage(db().pool, asked, 0, sort, { fromRank: from, count });
        expect(page?.snapshot.id).toBe(id);
        expect(
          page?.rows.map((r) => r.query),
          `${sort} ${from}+${count}`,
        ).toEqual(expectedSlice(0, rank, from, count));
      }
    }
    const small = await readSearchPage(db().pool, asked, 3, "unmet", { fromRank: 1, count: 100 });
    expect(small?.rows.map((r) => r.query)).toEqual(expectedSlice(3, "rankUnmet", 1, 100));
  });

  it("count each ranking beside its page, past the end too", async () => {
    await write();
    const total = async (scope: number, list: "volume" | "momentum" | "unmet", fromRank = 1) =>
      (await readSearchPage(db().pool, asked, scope, list, { fromRank, count: 10 }))?.total;
    expect(await total(0, "volume")).toBe(2_500);
    expect(await total(0, "momentum")).toBe(2_500);
    expect(await total(0, "unmet")).toBe(834);
    expect(await total(3, "unmet")).toBe(14);
    expect(await total(3, "unmet", 500)).toBe(14);
    expect(await total(5, "momentum")).toBe(0);
    const past = await readSearchPage(db().pool, asked, 3, "momentum", { fromRank: 41, count: 10 });
    expect(past?.rows).toEqual([]);
  });

  it("find no page of a date without a snapshot", async () => {
    await write();
    const other = { ...asked, date: "2026-11-22" };
    expect(await readSearchPage(db().pool, other, 0, "volume", { fromRank: 1, count: 10 })).toBeNull();
  });
});
