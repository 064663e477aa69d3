import type { Scenario } from "../scenario.js";
import { routeScenarios } from "./routes.js";

/** The one list of scenarios, run on both sides. */
export const scenarios = (): Scenario[] => [...routeScenarios()];
