import type { ApiCall } from "../internal/api-call.js";
import type { Core } from "../internal/core.js";
import type { ListCall } from "../internal/list-call.js";
import type { ListOptions } from "../internal/pagination.js";
import type { ListParams, QueryOf, ResponseOf } from "../internal/route-types.js";
import type { RequestOptions } from "../internal/transport.js";

/** Search demand (scope `demand-intent.read`). */
export class Searches {
  private readonly core: Core;

  /** @internal */
  constructor(core: Core) {
    this.core = core;
  }

  /** The search leaderboard (`sort`: volume, momentum or unmet). */
  list(
    params?: ListParams<"demandIntent.searches">,
    options?: ListOptions,
  ): ListCall<"demandIntent.searches"> {
    return this.core.list("demandIntent.searches", params, options);
  }

  /** Queries gaining pace fastest. */
  trending(
    params?: ListParams<"demandIntent.trending">,
    options?: ListOptions,
  ): ListCall<"demandIntent.trending"> {
    return this.core.list("demandIntent.trending", params, options);
  }

  /** Queries that return few or no results. */
  unmet(params?: ListParams<"demandIntent.unmet">, options?: ListOptions): ListCall<"demandIntent.unmet"> {
    return this.core.list("demandIntent.unmet", params, options);
  }

  /** The market-wide condition mix of searches (four rows). */
  conditions(
    query?: QueryOf<"demandIntent.conditions">,
    options?: RequestOptions,
  ): ApiCall<ResponseOf<"demandIntent.conditions">> {
    return this.core.get("demandIntent.conditions", undefined, query, options);
  }

  /** The condition mix of the demand for one game. */
  gameConditions(
    gameId: number,
    query?: QueryOf<"demandIntent.gameConditions">,
    options?: RequestOptions,
  ): ApiCall<ResponseOf<"demandIntent.gameConditions">> {
    return this.core.get("demandIntent.gameConditions", { game_id: gameId }, query, options);
  }
}
