import type { BatchCall, BatchOptions } from "../internal/batch.js";
import type { Core } from "../internal/core.js";

/** Raw demand signals (scope `intelligence.read`). */
export class Signals {
  private readonly core: Core;

  /** @internal */
  constructor(core: Core) {
    this.core = core;
  }

  /** The unblended inputs of the liquidity score for any number of games, chunked like `intelligence.batch`. */
  batch(ids: readonly number[], options?: BatchOptions): BatchCall<"signals.batch"> {
    return this.core.batch("signals.batch", ids, (id) => ({ id }), options);
  }
}
