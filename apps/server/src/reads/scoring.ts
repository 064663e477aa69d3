import type { Config } from "../config.js";
import type { ScoringConfig } from "../domain/analytics/weights.js";

/** The scoring settings of the serving configuration, in the domain's terms. */
export const scoringOf = (analytics: Config["analytics"]): ScoringConfig => ({
  demandWeights: analytics.demandIndexWeights,
  liquidityWeight: analytics.liquidityDemandWeight,
  unmetMinSearches: analytics.unmetMinSearches,
});
