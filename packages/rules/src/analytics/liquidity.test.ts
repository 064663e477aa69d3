import { describe, expect, it } from "vitest";
import type { GameAggregate, LiquiditySnapshotFields } from "./liquidity.js";
import {
  ALL_CONSOLES,
  buildLiquidityRows,
  leaderboardOrder,
  priceAccessibility,
  scoreLiquidityScope,
  zeroDemandFields,
} from "./liquidity.js";
import { DEFAULT_SCORING } from "./weights.js";

const game = (g: Partial<GameAggregate> & Pick<GameAggregate, "gameId">): GameAggregate => ({
  consoleId: 1,
  redirects: 0,
  distinctUsers: 0,
  watchCount: 0,
  searchCount: 0,
  redirects7d: 0,
  redirects30d: 0,
  priceComplete: null,
  ...g,
});

// A and B on console 1, C and D on console 2. C has no redirect but the most alerts and the
// highest price: it sets max_w and max_complete of the all-consoles scope without being ranked.
const A = game({
  gameId: 1,
  consoleId: 1,
  redirects: 10,
  distinctUsers: 8,
  watchCount: 2,
  priceComplete: 100,
});
const B = game({ gameId: 2, consoleId: 1, redirects: 5, distinctUsers: 5, watchCount: 4, priceComplete: 50 });
const C = game({ gameId: 3, consoleId: 2, watchCount: 5, priceComplete: 200 });
const D = game({
  gameId: 4,
  consoleId: 2,
  redirects: 5,
  distinctUsers: 4,
  redirects7d: 14,
  redirects30d: 50,
});

const pick = (rows: LiquiditySnapshotFields[], scope: number, gameId: number) =>
  rows.find((r) => r.scopeConsoleId === scope && r.gameId === gameId);

describe("buildLiquidityRows: all-consoles scope (max r=10, u=8, w=5, complete=200)", () => {
  const rows = buildLiquidityRows([A, B, C, D], DEFAULT_SCORING);

  it("scores A: index .5·1 + .3·1 + .2·2/5 = .88, access 1 − 100/200 = .5, score 100·(.7·.88 + .3·.5) = 76.6 → 77", () => {
    expect(pick(rows, 0, 1)).toMatchObject({
      demandIndex: 0.88,
      priceAccessibility: 0.5,
      liquidityScore: 77,
    });
  });

  it("scores B: index .25 + .3·5/8 + .2·4/5 = .5975, access .75, score 41.825 + 22.5 = 64.325 → 64", () => {
    expect(pick(rows, 0, 2)).toMatchObject({
      demandIndex: 0.5975,
      priceAccessibility: 0.75,
      liquidityScore: 64,
    });
  });

  it("scores C (no redirects) against the same population but leaves it unranked", () => {
    expect(pick(rows, 0, 3)).toMatchObject({
      demandIndex: 0.2,
      priceAccessibility: 0,
      liquidityScore: 14,
      rankLiquidity: null,
      rankDemand: null,
      rankValue: null,
    });
  });

  it("gives D without a price the 0.5 accessibility: index .25 + .15 = .4, score 28 + 15 = 43", () => {
    expect(pick(rows, 0, 4)).toMatchObject({ demandIndex: 0.4, priceAccessibility: 0.5, liquidityScore: 43 });
  });

  it("computes momentum from the 7/30-day redirects, not from the period", () => {
    expect(pick(rows, 0, 4)).toMatchObject({ momentumValue: 1.2, momentumLabel: "rising" });
    expect(pick(rows, 0, 1)).toMatchObject({ momentumValue: null, momentumLabel: "unknown" });
  });

  it("ranks the three sorts over games with redirects; value puts the unpriced game last", () => {
    const ranks = (id: number) => {
      const r = pick(rows, 0, id);
      return [r?.rankLiquidity, r?.rankDemand, r?.rankValue];
    };
    expect(ranks(1)).toEqual([1, 1, 1]);
    expect(ranks(2)).toEqual([2, 2, 2]);
    expect(ranks(4)).toEqual([3, 3, 3]);
  });
});

describe("buildLiquidityRows: console scopes normalize over their own games", () => {
  const rows = buildLiquidityRows([A, B, C, D], DEFAULT_SCORING);

  it("emits scope 0 and one scope per console, each game once per scope it belongs to", () => {
    expect(rows.map((r) => `${r.scopeConsoleId}:${r.gameId}`)).toEqual([
      "0:1",
      "0:2",
      "0:3",
      "0:4",
      "1:1",
      "1:2",
      "2:3",
      "2:4",
    ]);
  });

  it("console 1 (max w=4, complete=100): A .9 / access 0 → 63; B .6375 / .5 → 59.625 → 60", () => {
    expect(pick(rows, 1, 1)).toMatchObject({
      demandIndex: 0.9,
      priceAccessibility: 0,
      liquidityScore: 63,
      rankLiquidity: 1,
    });
    expect(pick(rows, 1, 2)).toMatchObject({
      demandIndex: 0.6375,
      priceAccessibility: 0.5,
      liquidityScore: 60,
      rankLiquidity: 2,
    });
  });

  it("console 2 (max r=5, u=4): D is the top title, index .5 + .3 = .8, score 56 + 15 = 71", () => {
    expect(pick(rows, 2, 4)).toMatchObject({
      demandIndex: 0.8,
      liquidityScore: 71,
      rankLiquidity: 1,
      rankValue: 1,
    });
  });

  it("refuses a game listed twice", () => {
    expect(() => buildLiquidityRows([A, A], DEFAULT_SCORING)).toThrow(RangeError);
  });
});

describe("ties and orders", () => {
  it("breaks a full tie by game id ascending, in every sort", () => {
    const twin = { redirects: 3, distinctUsers: 3, priceComplete: 20 };
    const rows = scoreLiquidityScope(
      0,
      [game({ gameId: 7, ...twin }), game({ gameId: 5, ...twin })],
      DEFAULT_SCORING,
    );
    expect(leaderboardOrder(rows, "liquidity").map((r) => r.gameId)).toEqual([5, 7]);
    expect(leaderboardOrder(rows, "demand").map((r) => r.gameId)).toEqual([5, 7]);
    expect(leaderboardOrder(rows, "value").map((r) => r.gameId)).toEqual([5, 7]);
  });

  it("value: equal complete prices fall back to liquidity score, unpriced games last", () => {
    const rows = scoreLiquidityScope(
      0,
      [
        game({ gameId: 1, redirects: 1, distinctUsers: 1, priceComplete: 50 }),
        game({ gameId: 2, redirects: 9, distinctUsers: 9, priceComplete: 50 }),
        game({ gameId: 3, redirects: 9, distinctUsers: 9 }),
        game({ gameId: 4, redirects: 1, distinctUsers: 1, priceComplete: 10 }),
      ],
      DEFAULT_SCORING,
    );
    expect(leaderboardOrder(rows, "value").map((r) => r.gameId)).toEqual([2, 1, 4, 3]);
  });

  it("liquidity: an equal score falls back to the demand index", () => {
    // Max r = u = 10, max complete = 100 (game 3, no redirects).
    // Game 1: index .5 + .3 = .8, no price → access .5: 100·(.56 + .15) = 71.
    // Game 2: index .5·.9 + .3·.9 = .72, price 30 → access .7: 100·(.504 + .21) = 71.4 → 71.
    const rows = scoreLiquidityScope(
      0,
      [
        game({ gameId: 2, redirects: 9, distinctUsers: 9, priceComplete: 30 }),
        game({ gameId: 1, redirects: 10, distinctUsers: 10 }),
        game({ gameId: 3, priceComplete: 100 }),
      ],
      DEFAULT_SCORING,
    );
    expect(rows.map((r) => r.liquidityScore)).toEqual([71, 71, 0]);
    expect(leaderboardOrder(rows, "liquidity").map((r) => r.gameId)).toEqual([1, 2]);
  });
});

describe("empty periods and prices", () => {
  it("keeps every game with a row but ranks none when nobody clicked", () => {
    const rows = buildLiquidityRows(
      [game({ gameId: 1, priceComplete: 10 }), game({ gameId: 2 })],
      DEFAULT_SCORING,
    );
    expect(rows.filter((r) => r.scopeConsoleId === 0)).toMatchObject([
      { gameId: 1, demandIndex: 0, priceAccessibility: 0, liquidityScore: 0, rankLiquidity: null },
      { gameId: 2, demandIndex: 0, priceAccessibility: 0.5, liquidityScore: 15, rankLiquidity: null },
    ]);
  });

  it("gives no rows at all for an empty catalog", () => {
    expect(buildLiquidityRows([], DEFAULT_SCORING)).toEqual([]);
  });

  it("price accessibility: 0.5 without a price, 1 when every price of the scope is 0", () => {
    expect(priceAccessibility(null, 300)).toBe(0.5);
    expect(priceAccessibility(0, 0)).toBe(1);
    expect(priceAccessibility(75, 300)).toBe(0.75);
  });

  it("honours configured weights", () => {
    const rows = scoreLiquidityScope(
      0,
      [game({ gameId: 1, redirects: 2, distinctUsers: 1, priceComplete: 10 })],
      {
        demandWeights: { intent: 1, reach: 0, watch: 0 },
        liquidityWeight: 1,
      },
    );
    expect(rows[0]).toMatchObject({ demandIndex: 1, liquidityScore: 100 });
  });
});

describe("zeroDemandFields", () => {
  it("is the row the scope's scoring gives a game without activity, at the scope's highest price", () => {
    const idle = game({ gameId: 9, consoleId: 1, priceComplete: 30 });
    const scored = scoreLiquidityScope(ALL_CONSOLES, [A, B, C, idle], DEFAULT_SCORING).find(
      (r) => r.gameId === 9,
    );
    expect(scored?.liquidityScore).toBeGreaterThan(0);
    expect(zeroDemandFields(9, 30, 200, DEFAULT_SCORING)).toEqual(scored);
    // Without a complete price: neither cheap nor dear.
    expect(zeroDemandFields(9, null, 200, DEFAULT_SCORING).priceAccessibility).toBe(0.5);
  });
});
