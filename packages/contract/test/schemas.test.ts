import { describe, expect, it } from "vitest";
import {
  AccountRecordSchema,
  ConditionRecommendationSchema,
  ConsoleRecordSchema,
  contract,
  ErrorEnvelopeSchema,
  examples,
  fourConditionRows,
  GameConditionRowSchema,
  GameRecordSchema,
  GameSignalsSchema,
  IntelligenceBatchElementSchema,
  IntelligenceListQuerySchema,
  LiquidityProfileSchema,
  LiquidityRowSchema,
  PaginationSchema,
  PLANS,
  SearchConditionRowSchema,
  SearchListQuerySchema,
  SearchRowSchema,
} from "../src/index.js";

const clone = <T>(value: T): T => structuredClone(value);
const conditionRows = fourConditionRows(SearchConditionRowSchema);

describe("the spec's examples parse", () => {
  it.each([
    ["liquidity row", LiquidityRowSchema, examples.liquidityRow],
    ["search row", SearchRowSchema, examples.searchRow],
    ["search condition rows", conditionRows, examples.searchConditionRows],
    ["game condition rows", fourConditionRows(GameConditionRowSchema), examples.gameConditionRows],
    ["condition recommendation", ConditionRecommendationSchema, examples.conditionRecommendation],
    ["game signals", GameSignalsSchema, examples.gameSignals],
    ["game record", GameRecordSchema, examples.gameRecord],
    ["console record", ConsoleRecordSchema, examples.consoleRecord],
    ["account record", AccountRecordSchema, examples.accountRecord],
  ] as const)("%s", (_name, schema, example) => {
    expect(schema.safeParse(example).success).toBe(true);
  });

  it("a profile may have no rank (game without redirect demand)", () => {
    expect(LiquidityProfileSchema.safeParse({ ...examples.liquidityRow, rank: null }).success).toBe(true);
    expect(LiquidityRowSchema.safeParse({ ...examples.liquidityRow, rank: null }).success).toBe(false);
  });
});

describe("wrong shapes are rejected", () => {
  it("an out-of-range liquidity score", () => {
    expect(LiquidityRowSchema.safeParse({ ...examples.liquidityRow, liquidity_score: 101 }).success).toBe(
      false,
    );
    expect(LiquidityRowSchema.safeParse({ ...examples.liquidityRow, liquidity_score: 7.5 }).success).toBe(
      false,
    );
  });

  it("a demand index above 1 and a missing field", () => {
    const row = clone(examples.liquidityRow);
    row.demand.index = 1.2;
    expect(LiquidityRowSchema.safeParse(row).success).toBe(false);
    const { pricing: _pricing, ...withoutPricing } = examples.liquidityRow;
    expect(LiquidityRowSchema.safeParse(withoutPricing).success).toBe(false);
  });

  it("a bad momentum label, or a value with label unknown", () => {
    expect(
      SearchRowSchema.safeParse({ ...examples.searchRow, momentum: { value: 1, label: "hot" } }).success,
    ).toBe(false);
    expect(
      SearchRowSchema.safeParse({ ...examples.searchRow, momentum: { value: 1, label: "unknown" } }).success,
    ).toBe(false);
    expect(
      SearchRowSchema.safeParse({ ...examples.searchRow, momentum: { value: null, label: "unknown" } })
        .success,
    ).toBe(true);
  });

  it("prices that are not decimal strings", () => {
    const row = clone(examples.liquidityRow) as { pricing: Record<string, unknown> };
    row.pricing.loose = 149.99;
    expect(LiquidityRowSchema.safeParse(row).success).toBe(false);
  });

  it("a fifth condition row, a repeated condition, rows out of rank order", () => {
    const fifth = { ...examples.searchConditionRows[0], rank: 4 };
    expect(conditionRows.safeParse([...examples.searchConditionRows, fifth]).success).toBe(false);
    const repeated = clone(examples.searchConditionRows);
    repeated[3] = { ...repeated[0], rank: 4 } as (typeof repeated)[number];
    expect(conditionRows.safeParse(repeated).success).toBe(false);
    const reordered = clone(examples.searchConditionRows).reverse();
    expect(conditionRows.safeParse(reordered).success).toBe(false);
  });

  it("condition shares that do not sum to 1", () => {
    const [first, ...rest] = clone(examples.searchConditionRows);
    const rows = [{ ...first, condition_share: 0.9 }, ...rest];
    expect(conditionRows.safeParse(rows).success).toBe(false);
  });

  it("an unknown period, sort or paginate value, and a date that is not a calendar date", () => {
    expect(IntelligenceListQuerySchema.safeParse({ period: "90d" }).success).toBe(false);
    expect(IntelligenceListQuerySchema.safeParse({ sort: "volume" }).success).toBe(false);
    expect(SearchListQuerySchema.safeParse({ sort: "liquidity" }).success).toBe(false);
    expect(SearchListQuerySchema.safeParse({ paginate: "offset" }).success).toBe(false);
    expect(SearchListQuerySchema.safeParse({ date: "2026-02-30" }).success).toBe(false);
    expect(SearchListQuerySchema.safeParse({ date: "20261120" }).success).toBe(false);
    expect(SearchListQuerySchema.safeParse({ limit: "0" }).success).toBe(false);
    expect(SearchListQuerySchema.safeParse({ console_id: "snes" }).success).toBe(false);
  });

  it("a pagination object mixing both modes' fields stays in its mode", () => {
    expect(
      PaginationSchema.safeParse({ mode: "cursor", per_page: 25, total: 3, next_cursor: null }).success,
    ).toBe(true);
    expect(
      PaginationSchema.safeParse({ mode: "page", per_page: 25, total: 3, next_cursor: null }).success,
    ).toBe(false);
  });
});

describe("query defaults follow the spec", () => {
  it("leaderboard defaults", () => {
    expect(IntelligenceListQuerySchema.parse({})).toEqual({
      period: "7d",
      sort: "liquidity",
      limit: 25,
      page: 1,
      paginate: "page",
    });
    expect(SearchListQuerySchema.parse({ limit: "500" }).limit).toBe(500);
    expect(SearchListQuerySchema.parse({}).sort).toBe("volume");
  });

  it("batch elements accept game_id or id, as JSON integers", () => {
    expect(IntelligenceBatchElementSchema.safeParse({ game_id: 101 }).success).toBe(true);
    expect(IntelligenceBatchElementSchema.safeParse({ id: 101 }).success).toBe(true);
    expect(IntelligenceBatchElementSchema.safeParse({ game_id: "101" }).success).toBe(false);
    expect(IntelligenceBatchElementSchema.safeParse({ game_id: -1 }).success).toBe(false);
  });
});

describe("errors", () => {
  it("accepts each spec-given details shape and rejects a wrong one", () => {
    const ok = [
      { code: "insufficient_scope", message: "m", details: { required_scope: "games.read" } },
      { code: "batch_too_large", message: "m", details: { max_items: 10, received: 11 } },
      { code: "rate_limit_exceeded", message: "m", details: { window: "minute", limit: 30 } },
      { code: "unauthorized", message: "m" },
    ];
    for (const error of ok) expect(ErrorEnvelopeSchema.safeParse({ error }).success).toBe(true);
    const bad = [
      { code: "rate_limit_exceeded", message: "m", details: { window: "hour", limit: 30 } },
      { code: "batch_too_large", message: "m", details: { max_items: 10 } },
      { code: "unauthorized", message: "m", details: { anything: 1 } },
      { code: "teapot", message: "m" },
    ];
    for (const error of bad) expect(ErrorEnvelopeSchema.safeParse({ error }).success).toBe(false);
  });
});

describe("plans", () => {
  it("carry the spec's table", () => {
    expect(PLANS.free).toMatchObject({
      rate_limit_per_minute: 30,
      rate_limit_per_day: 1000,
      monthly_quota: 10000,
    });
    expect(PLANS.starter.max_batch_size).toBe(50);
    expect(PLANS.pro.max_page_size).toBe(100);
    expect(PLANS.enterprise.monthly_quota).toBeNull();
  });
});

describe("contract", () => {
  it("declares 207 on both batch routes and strict status codes everywhere", () => {
    expect(Object.keys(contract.intelligence.batch.responses)).toContain("207");
    expect(Object.keys(contract.signals.batch.responses)).toContain("207");
    expect(contract.games.byId.strictStatusCodes).toBe(true);
  });
});
