import type { IntelligenceBatchElement } from "@gmi/contract";
import { IntelligenceBatchElementSchema, SignalsBatchElementSchema } from "@gmi/contract";
import { describe, expect, it } from "vitest";
import type { ApiError } from "../../errors.js";
import { batchJson, buildItems, idsOf, summarize } from "./items.js";
import { batchShape, parseElements } from "./requests.js";

const refusal = (body: unknown, max: number): ApiError => {
  const shape = batchShape(body, max);
  if (shape.ok) throw new Error("expected a refusal");
  return shape.refusal;
};

describe("batchShape", () => {
  it("422 validation_failed naming requests when missing, not an array or empty", () => {
    for (const [body, message] of [
      [{}, "is required"],
      [null, "is required"],
      [{ requests: {} }, "must be an array"],
      [{ requests: [] }, "must hold at least one element"],
    ] as const) {
      const error = refusal(body, 10);
      expect(error.code).toBe("validation_failed");
      expect(error.details).toEqual({ issues: [{ location: "body", field: "requests", message }] });
    }
  });

  it("422 batch_too_large above max_batch_size, with max_items and received", () => {
    const error = refusal({ requests: Array(11).fill({ id: 1 }) }, 10);
    expect(error.code).toBe("batch_too_large");
    expect(error.details).toEqual({ max_items: 10, received: 11 });
    const shape = batchShape({ requests: Array(10).fill({ id: 1 }) }, 10);
    expect(shape.ok && shape.requests).toHaveLength(10);
  });
});

describe("parseElements", () => {
  const intelligence = (requests: unknown[]) =>
    parseElements(requests, IntelligenceBatchElementSchema, (e: IntelligenceBatchElement) =>
      "game_id" in e ? e.game_id : e.id,
    );
  const fieldsOf = (requests: unknown[]) =>
    intelligence(requests).map((e) =>
      e.ok ? e.id : (e.error.details as { issues: Array<{ field: string; message: string }> }).issues[0],
    );

  it("takes game_id or id; game_id wins when both are there", () => {
    expect(
      intelligence([{ game_id: 101 }, { id: 102 }, { game_id: 3, id: 4 }, { id: 5, extra: true }]),
    ).toEqual([
      { ok: true, id: 101 },
      { ok: true, id: 102 },
      { ok: true, id: 3 },
      { ok: true, id: 5 },
    ]);
  });

  it("an invalid element is that item's 422, naming requests.<index>.<field>", () => {
    expect(
      fieldsOf([{ game_id: 1 }, { game_id: "x" }, { id: 1.5 }, { game_id: 0 }, {}, 7, null, [1]]),
    ).toMatchObject([
      1,
      { field: "requests.1.game_id", message: "must be an integer" },
      { field: "requests.2.id", message: "must be an integer" },
      { field: "requests.3.game_id", message: "must be 1 or more" },
      { field: "requests.4", message: "must have game_id or id" },
      { field: "requests.5", message: "must be an object" },
      { field: "requests.6", message: "must be an object" },
      { field: "requests.7", message: "must be an object" },
    ]);
  });

  it("the item error is the error envelope's content", () => {
    const [element] = intelligence([{ game_id: "x" }]);
    expect(element).toEqual({
      ok: false,
      error: {
        code: "validation_failed",
        message: "Invalid body parameter requests.0.game_id: must be an integer",
        details: {
          issues: [{ location: "body", field: "requests.0.game_id", message: "must be an integer" }],
        },
      },
    });
  });

  it("signals elements need id", () => {
    const parsed = parseElements([{ id: 9 }, { game_id: 9 }], SignalsBatchElementSchema, (e) => e.id);
    expect(parsed[0]).toEqual({ ok: true, id: 9 });
    expect(parsed[1]).toMatchObject({
      ok: false,
      error: { message: "Invalid body parameter requests.1.id: is required" },
    });
  });
});

describe("items and summary", () => {
  const elements = parseElements(
    [{ id: 1 }, { id: 2 }, { id: "bad" }, { id: 1 }],
    SignalsBatchElementSchema,
    (e) => e.id,
  );

  it("one item per element in request order; ids read once", () => {
    expect(idsOf(elements)).toEqual([1, 2]);
    const items = buildItems(elements, (id) =>
      id === 1 ? { game_id: 1, found: true } : { game_id: id, found: false },
    );
    expect(items.map((i) => i.status)).toEqual([200, 200, 422, 200]);
    expect(items[1]).toEqual({ status: 200, data: { game_id: 2, found: false } });
    expect(summarize(items)).toEqual({ status: 207, batch: { total: 4, succeeded: 3, failed: 1 } });
  });

  it("200 when every item is 2xx (not-found included); 207 when every item failed", () => {
    const ok = buildItems(elements.slice(0, 2), (id) => ({ game_id: id, found: false }));
    expect(summarize(ok)).toEqual({ status: 200, batch: { total: 2, succeeded: 2, failed: 0 } });
    const bad = buildItems(elements.slice(2, 3), () => null);
    expect(summarize(bad)).toEqual({ status: 207, batch: { total: 1, succeeded: 0, failed: 1 } });
  });

  it("batchJson is JSON.stringify of the answer byte for byte, each found item's JSON made by jsonOf", () => {
    const found = { game_id: 1, found: true, pricing: { loose: "1.50", complete: null }, 'é"': [1, 2] };
    const items = buildItems(elements, (id) => (id === 1 ? found : { game_id: id, found: false }));
    const meta = { period: "7d", period_date: "2026-11-20", batch: summarize(items).batch };
    const made: unknown[] = [];
    const json = batchJson(items, meta, (data) => {
      made.push(data);
      return JSON.stringify(data);
    });
    expect(json).toBe(JSON.stringify({ data: items, meta }));
    // Found and not-found data go through jsonOf; the invalid element's error does not.
    expect(made).toHaveLength(3);
  });
});
