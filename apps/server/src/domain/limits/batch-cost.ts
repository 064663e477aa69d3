/**
 * Units a batch request costs: one per element (spec, Limits rule 5). A body the batch handler will
 * refuse whole (no `requests` array, empty, or above max_batch_size) costs one unit, like any
 * other refused request, so an oversized batch gets its 422 batch_too_large rather than a 429.
 */
export const batchCost = (body: unknown, maxBatchSize: number): number => {
  const requests = (body as { requests?: unknown } | null | undefined)?.requests;
  return Array.isArray(requests) && requests.length >= 1 && requests.length <= maxBatchSize
    ? requests.length
    : 1;
};
