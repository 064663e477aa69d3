import { ApiCall, withResponseOf } from "./api-call.js";
import { type BatchCall, type BatchHost, type BatchOptions, runBatch } from "./batch.js";
import { ListCall } from "./list-call.js";
import { type ListOptions, Walk } from "./pagination.js";
import type { BatchRouteName, ListParams, ListRouteName, ResponseOf, RouteName } from "./route-types.js";
import type { RequestOptions, Transport } from "./transport.js";

type PathParams = Record<string, string | number>;

/** What the resource classes share: one transport, one plan cache, one rate-limit gate. */
export class Core implements BatchHost {
  private plan: Promise<number> | undefined;

  constructor(
    readonly transport: Transport,
    readonly batchConcurrency: number,
    private readonly fixedBatchSize: number | undefined,
  ) {}

  get<N extends RouteName>(
    route: N,
    params: PathParams | undefined,
    query: object | undefined,
    options: RequestOptions | undefined,
  ): ApiCall<ResponseOf<N>> {
    return new ApiCall(
      this.transport.send<ResponseOf<N>>({ route, params, query }, options).then(withResponseOf),
    );
  }

  list<N extends ListRouteName>(
    route: N,
    query: ListParams<N> | undefined,
    options: ListOptions | undefined,
    params?: PathParams,
  ): ListCall<N> {
    const walk = new Walk(route, query, options ?? {}, (q, o) =>
      this.transport.send<ResponseOf<N>>({ route, params, query: q }, o),
    );
    return new ListCall(walk);
  }

  batch<N extends BatchRouteName>(
    route: N,
    ids: readonly number[],
    element: (id: number) => object,
    options: BatchOptions | undefined,
  ): BatchCall<N> {
    return new ApiCall(runBatch(this, route, ids, element, options));
  }

  me(options?: RequestOptions): ApiCall<ResponseOf<"account.me">> {
    const call = this.get("account.me", undefined, undefined, options);
    call.then(
      (body) => {
        this.plan = Promise.resolve(body.data.plan.max_batch_size);
      },
      () => {}, // the caller sees the failure through the call itself
    );
    return call;
  }

  /** The plan's `max_batch_size`: from the options, else `/api/v1/me` read once and cached. */
  maxBatchSize(options: RequestOptions): Promise<number> {
    if (this.fixedBatchSize !== undefined) return Promise.resolve(this.fixedBatchSize);
    // Not the caller's signal: the answer is shared by every batch call of this client.
    const { signal: _signal, ...shared } = options;
    this.plan ??= this.me(shared).then(
      (body) => body.data.plan.max_batch_size,
      (error: unknown) => {
        this.plan = undefined;
        throw error;
      },
    );
    return this.plan;
  }

  forgetPlan(): void {
    this.plan = undefined;
  }
}
