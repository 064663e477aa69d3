import { type ApiCall, type ApiResponse, responseOf } from "./api-call.js";
import { backoffDelay } from "./backoff.js";
import { isRetryable, UnexpectedResponseError } from "./errors.js";
import { newIdempotencyKey } from "./keys.js";
import type { BatchItemOf, BatchResult, BatchRouteName, Period } from "./route-types.js";
import { sleep } from "./sleep.js";
import { type Answer, type RequestOptions, rateLimitOf, requestIdOf, type Transport } from "./transport.js";

export interface BatchOptions extends RequestOptions {
  /** Applies to every item (one period scope for the whole batch). */
  period?: Period | undefined;
  /** The window-end date of the whole batch (`YYYY-MM-DD`); default the latest computed. */
  date?: string | undefined;
  /**
   * Base of the chunks' `Idempotency-Key`s (chunk keys are `<base>:<first>-<last>` input indexes).
   * Pass your own to be able to rerun a failed call safely; default: a fresh UUID per call.
   */
  idempotencyKey?: string | undefined;
  /** Items per request; default the plan's `max_batch_size` from `/api/v1/me` (fetched once). */
  chunkSize?: number | undefined;
  /** Chunks in flight at once (default: the client's `batchConcurrency`, 4). */
  concurrency?: number | undefined;
  /** Rounds of re-sending only the items that failed with 429 or 5xx (default: `maxRetries`). */
  itemRetries?: number | undefined;
}

/** A batch's merged result with the answers it was made of: what `batch(...).withResponse()` resolves to. */
export interface BatchWithResponse<N extends BatchRouteName> {
  /** What awaiting the call gives. */
  data: BatchResult<N>;
  /** The answer that arrived last: its rate-limit state is the call's latest; undefined without ids. */
  response: ApiResponse | undefined;
  /** Every answer, in the order they arrived (chunks, item retries); each names its `idempotencyKey`. */
  responses: ApiResponse[];
}

/** What a batch method returns: awaited, the merged result; `withResponse()` adds its answers. */
export type BatchCall<N extends BatchRouteName> = ApiCall<BatchResult<N>, BatchWithResponse<N>>;

export interface BatchHost {
  transport: Transport;
  batchConcurrency: number;
  maxBatchSize(options: RequestOptions): Promise<number>;
  forgetPlan(): void;
}

/** `[start, end)` input ranges of at most `size` items: the chunk boundaries. */
export const chunkRanges = (count: number, size: number): Array<[number, number]> => {
  const ranges: Array<[number, number]> = [];
  for (let start = 0; start < count; start += size) ranges.push([start, Math.min(count, start + size)]);
  return ranges;
};

type Item<N extends BatchRouteName> = BatchItemOf<N>;

/** The envelope of both batch routes, as generic code sees it. */
type WireItem = { status: number; error?: { code: string } };
interface WireBatch {
  data: WireItem[];
  meta: { period: Period; period_date: string };
}

const failedRetryably = (item: WireItem | undefined) =>
  item !== undefined &&
  item.error !== undefined &&
  isRetryable(item.status, item.error.code as Parameters<typeof isRetryable>[1]);

/** Splits ids into plan-sized chunks, sends them with bounded concurrency, merges in input order. */
export async function runBatch<N extends BatchRouteName>(
  host: BatchHost,
  route: N,
  ids: readonly number[],
  element: (id: number) => object,
  options: BatchOptions = {},
): Promise<BatchWithResponse<N>> {
  const { period, date, idempotencyKey, chunkSize, concurrency, itemRetries, ...request } = options;
  const base = idempotencyKey ?? newIdempotencyKey();
  if (base.length > 200)
    throw new TypeError("idempotencyKey: at most 200 characters (chunk suffixes follow)");
  const { transport } = host;
  const deadlineAt = transport.deadline(request);
  const items: Array<WireItem | undefined> = new Array(ids.length);
  let scope: { period: Period; period_date: string } | undefined;
  let requests = 0;
  const responses: ApiResponse[] = [];

  const size = ids.length === 0 ? 1 : (chunkSize ?? (await host.maxBatchSize(request)));
  if (!Number.isInteger(size) || size < 1) throw new TypeError("chunkSize must be a positive integer");
  const ranges = chunkRanges(ids.length, size);

  const send = async (indices: number[], key: string): Promise<Answer<WireBatch>> => {
    requests++;
    const body = { requests: indices.map((i) => element(ids[i] as number)) };
    const answer = await transport.send<WireBatch>(
      { route, query: { period, date }, body, idempotencyKey: key },
      request,
      deadlineAt,
    );
    responses.push(responseOf(answer));
    const data = answer.body.data;
    if (data.length !== indices.length) {
      throw new UnexpectedResponseError({
        message: `The batch answered ${data.length} items for ${indices.length} elements`,
        status: answer.status,
        requestId: requestIdOf(answer),
        idempotencyKey: key,
      });
    }
    scope ??= { period: answer.body.meta.period, period_date: answer.body.meta.period_date };
    indices.forEach((index, j) => {
      items[index] = data[j];
    });
    return answer;
  };

  const rounds = itemRetries ?? transport.options.maxRetries;
  const runChunk = async ([start, end]: [number, number]) => {
    const key = `${base}:${start}-${end - 1}`;
    let indices = Array.from({ length: end - start }, (_, i) => start + i);
    let answer = await send(indices, key);
    for (let round = 1; round <= rounds; round++) {
      indices = indices.filter((i) => failedRetryably(items[i]));
      if (indices.length === 0) return;
      const rateLimited = indices.some((i) => items[i]?.status === 429);
      const window = rateLimitOf(answer);
      const delay =
        rateLimited && window && window.remaining === 0
          ? window.reset * 1000
          : backoffDelay(round, transport.options.backoff);
      // A wait longer than the call allows leaves those items failed rather than sleeping silently.
      if (delay > transport.allowedWait(deadlineAt)) return;
      await sleep(delay, request.signal);
      // Deterministic key: a rerun of the whole call replays this retry too.
      answer = await send(indices, `${key}:retry-${round}`);
    }
  };

  let failure: { error: unknown } | undefined;
  let next = 0;
  const worker = async () => {
    while (!failure && next < ranges.length) {
      const range = ranges[next++] as [number, number];
      try {
        await runChunk(range);
      } catch (error) {
        failure ??= { error };
      }
    }
  };
  const width = Math.max(1, Math.min(concurrency ?? host.batchConcurrency, ranges.length));
  await Promise.all(Array.from({ length: width }, worker));
  if (failure) {
    if ((failure.error as { code?: string }).code === "batch_too_large") host.forgetPlan();
    throw failure.error;
  }

  const data = items as WireItem[];
  const succeeded = data.filter((item) => item.status >= 200 && item.status < 300).length;
  const result: BatchResult<N> = {
    data: data as Array<Item<N>>,
    meta: {
      period: scope?.period ?? period ?? "7d",
      period_date: scope?.period_date ?? null,
      batch: { total: data.length, succeeded, failed: data.length - succeeded },
      chunks: ranges.length,
      requests,
    },
    idempotencyKey: base,
  };
  return { data: result, response: responses.at(-1), responses };
}
