import type { Core } from "../internal/core.js";
import type { ListCall } from "../internal/list-call.js";
import type { ListOptions } from "../internal/pagination.js";
import type { ListParams } from "../internal/route-types.js";

/** Consoles: the valid `console_id` values (scope `games.read`). */
export class Consoles {
  private readonly core: Core;

  /** @internal */
  constructor(core: Core) {
    this.core = core;
  }

  /** Every console (a list call: await it or iterate it). */
  list(params?: ListParams<"consoles.list">, options?: ListOptions): ListCall<"consoles.list"> {
    return this.core.list("consoles.list", params, options);
  }
}
