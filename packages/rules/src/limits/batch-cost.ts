import type { BatchShape } from "../batch/requests.js";

/**
 * Units a batch request costs: one per element (spec, Limits rule 5). A body refused whole (no
 * `requests` array, empty, or above max_batch_size) costs one unit, like any other refused request,
 * so an oversized batch gets its 422 batch_too_large rather than a 429.
 */
export const batchCost = (shape: BatchShape): number => (shape.ok ? shape.requests.length : 1);

/**
 * What a batch request is charged once its Idempotency-Key (if any) is settled: a request that does
 * the work pays its elements to the rate windows and the monthly quota; an answer that does no work
 * (a replay, a 409, a 422 reuse) and a retry whose units an earlier holder already charged (prepaid)
 * pay one unit of the rate windows only (docs/idempotency.md, "Metering of answers that do no work").
 */
export type BatchCharge = { units: number; quota: boolean };

export const batchCharge = (shape: BatchShape, answer: "work" | "prepaid work" | "no work"): BatchCharge =>
  answer === "work" ? { units: batchCost(shape), quota: true } : { units: 1, quota: false };
