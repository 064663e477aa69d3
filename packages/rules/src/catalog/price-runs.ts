import type { Pricing } from "@gmi/contract";

/**
 * A game's price history as runs of unchanged prices: each first seen at `observedAt` and last seen
 * at `lastObservedAt` (instants in canonical UTC form, `2026-11-20T10:00:00.000Z`, so they compare as
 * text). A game's runs are in time order, do not overlap, and two in a row differ: an import that
 * sees the same prices again moves a run's end instead of adding a row a day.
 */
export type PriceRun = { observedAt: string; lastObservedAt: string; prices: Pricing };

export const samePrices = (a: Pricing, b: Pricing): boolean =>
  a.loose === b.loose && a.complete === b.complete && a.new === b.new;

/**
 * The runs once `prices` were seen at `at`. Each run is known by the observations at its two ends;
 * the new one joins them (replacing one made at the same instant: the later line wins), and
 * neighbours with equal prices merge. So files may come in any order: an observation inside a run
 * with other prices splits it at the moments known, and one older than every run changes nothing
 * after it.
 */
export const addObservation = (runs: readonly PriceRun[], at: string, prices: Pricing): PriceRun[] => {
  const points = runs
    .flatMap((run) => [
      { at: run.observedAt, prices: run.prices },
      ...(run.lastObservedAt === run.observedAt ? [] : [{ at: run.lastObservedAt, prices: run.prices }]),
    ])
    .filter((point) => point.at !== at);
  points.push({ at, prices });
  points.sort((a, b) => (a.at < b.at ? -1 : a.at > b.at ? 1 : 0));
  const merged: PriceRun[] = [];
  for (const point of points) {
    const last = merged.at(-1);
    if (last && samePrices(last.prices, point.prices)) last.lastObservedAt = point.at;
    else merged.push({ observedAt: point.at, lastObservedAt: point.at, prices: point.prices });
  }
  return merged;
};

/** The catalog's current prices: the newest run's (none before any observation). */
export const currentPrices = (runs: readonly PriceRun[]): Pricing =>
  runs.at(-1)?.prices ?? { loose: null, complete: null, new: null };

export const sameRuns = (a: readonly PriceRun[], b: readonly PriceRun[]): boolean =>
  a.length === b.length &&
  a.every((run, i) => {
    const other = b[i];
    return (
      other !== undefined &&
      run.observedAt === other.observedAt &&
      run.lastObservedAt === other.lastObservedAt &&
      samePrices(run.prices, other.prices)
    );
  });

/** Prices of a game seen at an instant: a catalog line's (its `observed_at`, else the import's time). */
export type PriceSighting = { gameId: number; at: string; prices: Pricing };

/**
 * The runs of the games whose history `sightings` change, taken in order (a later line of the same
 * game and instant wins), starting from each game's stored runs (`stored`).
 */
export const observePrices = (
  stored: ReadonlyMap<number, readonly PriceRun[]>,
  sightings: Iterable<PriceSighting>,
): Map<number, PriceRun[]> => {
  const runs = new Map<number, PriceRun[]>();
  for (const { gameId, at, prices } of sightings) {
    runs.set(gameId, addObservation(runs.get(gameId) ?? stored.get(gameId) ?? [], at, prices));
  }
  for (const [gameId, after] of runs) if (sameRuns(stored.get(gameId) ?? [], after)) runs.delete(gameId);
  return runs;
};
