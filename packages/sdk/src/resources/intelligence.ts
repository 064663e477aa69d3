import type { ApiCall } from "../internal/api-call.js";
import type { BatchCall, BatchOptions } from "../internal/batch.js";
import type { Core } from "../internal/core.js";
import type { ListCall } from "../internal/list-call.js";
import type { ListOptions } from "../internal/pagination.js";
import type { ListParams, QueryOf, ResponseOf } from "../internal/route-types.js";
import type { RequestOptions } from "../internal/transport.js";

/** Liquidity intelligence (scope `intelligence.read`). */
export class Intelligence {
  private readonly core: Core;

  /** @internal */
  constructor(core: Core) {
    this.core = core;
  }

  /** The liquidity leaderboard. */
  list(params?: ListParams<"intelligence.list">, options?: ListOptions): ListCall<"intelligence.list"> {
    return this.core.list("intelligence.list", params, options);
  }

  /** One game's liquidity profile (404 for an unknown or disabled game). */
  get(
    id: number,
    query?: QueryOf<"intelligence.get">,
    options?: RequestOptions,
  ): ApiCall<ResponseOf<"intelligence.get">> {
    return this.core.get("intelligence.get", { id }, query, options);
  }

  /** The listing condition (loose, CIB, new) recommended for one game. */
  conditions(
    id: number,
    query?: QueryOf<"intelligence.conditions">,
    options?: RequestOptions,
  ): ApiCall<ResponseOf<"intelligence.conditions">> {
    return this.core.get("intelligence.conditions", { id }, query, options);
  }

  /**
   * One game's daily points (liquidity score, demand index, redirects, distinct users, watch and
   * search counts) from `from` to `to`, at most 90 days; by default the 30 days ending on the latest
   * computed date. Beyond the spec's interface: an addition of this API.
   */
  history(
    id: number,
    query?: QueryOf<"intelligence.history">,
    options?: RequestOptions,
  ): ApiCall<ResponseOf<"intelligence.history">> {
    return this.core.get("intelligence.history", { id }, query, options);
  }

  /**
   * Scores any number of games: chunks of the plan's `max_batch_size`, one item per id in input
   * order, per-item failures kept per item (inspect each `status`).
   */
  batch(ids: readonly number[], options?: BatchOptions): BatchCall<"intelligence.batch"> {
    return this.core.batch("intelligence.batch", ids, (game_id) => ({ game_id }), options);
  }
}
