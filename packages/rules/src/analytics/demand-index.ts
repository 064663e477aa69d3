import type { DemandWeights } from "./weights.js";

/** The three demand signals of one game over the period. */
export type DemandSignals = { redirects: number; distinctUsers: number; watchCount: number };

/** The largest of each signal over a scope's population (see docs/scoring.md, Population). */
export type DemandMaxima = DemandSignals;

export const demandMaxima = (population: readonly DemandSignals[]): DemandMaxima =>
  population.reduce<DemandMaxima>(
    (max, s) => ({
      redirects: Math.max(max.redirects, s.redirects),
      distinctUsers: Math.max(max.distinctUsers, s.distinctUsers),
      watchCount: Math.max(max.watchCount, s.watchCount),
    }),
    { redirects: 0, distinctUsers: 0, watchCount: 0 },
  );

/** A signal over its scope maximum; a maximum of 0 makes the term 0 (nobody has that signal). */
const term = (value: number, max: number): number => (max > 0 ? value / max : 0);

/**
 * w_intent·r/max_r + w_reach·u/max_u + w_watch·w/max_w, unrounded (0..1 since the weights sum to 1).
 * Callers round for publication and score from the unrounded value.
 */
export const demandIndex = (signals: DemandSignals, maxima: DemandMaxima, weights: DemandWeights): number =>
  weights.intent * term(signals.redirects, maxima.redirects) +
  weights.reach * term(signals.distinctUsers, maxima.distinctUsers) +
  weights.watch * term(signals.watchCount, maxima.watchCount);
