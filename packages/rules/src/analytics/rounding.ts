/** Every published float (index, accessibility, shares, momentum, averages) carries 4 decimals. */
export const DECIMALS = 4;
const SCALE = 10 ** DECIMALS;

/**
 * Binary floating point turns an exact half (72.5) into 72.49999999999999 often enough to matter at
 * a rank boundary; a tolerance far below any real difference of our inputs restores half-up.
 */
const EPSILON = 1e-9;

/** Half-up to 4 decimals (inputs are never negative). */
export const round4 = (value: number): number => Math.round(value * SCALE + EPSILON) / SCALE;

/** Half-up to an integer, clamped to 0..100: the shape of every published score. */
export const roundScore = (value: number): number => Math.min(100, Math.max(0, Math.round(value + EPSILON)));

/** `part / whole`, 0 when `whole` is 0 (an empty denominator means "no signal", not NaN). */
export const ratio = (part: number, whole: number): number => (whole > 0 ? part / whole : 0);

/**
 * Shares of `counts`, each with 4 decimals, summing to exactly 1 (in units of 0.0001) whenever the
 * total is positive: largest remainder (Hamilton) apportionment of 10,000 units. Remainder ties go to
 * the earlier entry, so callers pass entries in their fixed tie order. All zeros when the total is 0.
 */
export const largestRemainderShares = (counts: readonly number[]): number[] => {
  const total = counts.reduce((sum, c) => sum + c, 0);
  if (total <= 0) return counts.map(() => 0);
  const exact = counts.map((c) => (c * SCALE) / total);
  const units = exact.map((e) => Math.floor(e + EPSILON));
  let left = SCALE - units.reduce((sum, u) => sum + u, 0);
  const byRemainder = exact
    .map((e, index) => ({ index, remainder: e - Math.floor(e + EPSILON) }))
    .sort((a, b) => b.remainder - a.remainder || a.index - b.index);
  for (const { index } of byRemainder) {
    if (left <= 0) break;
    units[index] = (units[index] ?? 0) + 1;
    left -= 1;
  }
  return units.map((u) => u / SCALE);
};
