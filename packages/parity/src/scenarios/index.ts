import type { Scenario } from "../scenario.js";
import { batchScenarios } from "./batches.js";
import { corsScenarios } from "./cors.js";
import { historyScenarios } from "./history.js";
import { idempotencyScenarios } from "./idempotency.js";
import { listScenarios } from "./lists.js";
import { routeScenarios } from "./routes.js";

/** The one list of scenarios, run on both sides. */
export const scenarios = (): Scenario[] => [
  ...routeScenarios(),
  ...listScenarios(),
  ...batchScenarios(),
  ...idempotencyScenarios(),
  ...historyScenarios(),
  ...corsScenarios(),
];
