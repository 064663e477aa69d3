import { ListCall } from "../list-call.js";
import { type ListOptions, Walk } from "../pagination.js";
import type {
  BatchResult,
  BatchRouteName,
  ListParams,
  ListRouteName,
  ResponseOf,
  RouteName,
} from "../types.js";
import { type BatchHost, type BatchOptions, runBatch } from "./batch.js";
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

  async get<N extends RouteName>(
    route: N,
    params: PathParams | undefined,
    query: object | undefined,
    options: RequestOptions | undefined,
  ): Promise<ResponseOf<N>> {
    return (await this.transport.send<ResponseOf<N>>({ route, params, query }, options)).body;
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
  ): Promise<BatchResult<N>> {
    return runBatch(this, route, ids, element, options);
  }

  async me(options?: RequestOptions): Promise<ResponseOf<"account.me">> {
    const body = await this.get("account.me", undefined, undefined, options);
    this.plan = Promise.resolve(body.data.plan.max_batch_size);
    return body;
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
