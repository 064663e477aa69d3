/** A seeded source of uniform floats in [0, 1); the only randomness the demo uses. */
export type Rng = () => number;

/**
 * mulberry32: 32-bit state, fast, and good enough for synthetic data. Chosen over Math.random because
 * the same seed must give the same marketplace on every machine and Node version.
 */
export const mulberry32 = (seed: number): Rng => {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
};

/** Derives an independent stream from a seed and a label, so adding draws to one part of the demo does not reshuffle another. */
export const substream = (seed: number, label: string): Rng => {
  let h = 2_166_136_261 ^ seed;
  for (let i = 0; i < label.length; i += 1) h = Math.imul(h ^ label.charCodeAt(i), 16_777_619);
  return mulberry32(h >>> 0);
};

/** A stateless hash of (seed, n) to [0, 1): per-user traits without storing a table of users. */
export const hashUnit = (seed: number, n: number): number => {
  let h = Math.imul(seed ^ 0x9e3779b9, 0x85ebca6b) ^ Math.imul(n, 0xc2b2ae35);
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
  return ((h ^ (h >>> 16)) >>> 0) / 4_294_967_296;
};

export const intBetween = (rng: Rng, min: number, max: number): number =>
  min + Math.floor(rng() * (max - min + 1));

export const pick = <T>(rng: Rng, items: readonly T[]): T => {
  const item = items[Math.floor(rng() * items.length)];
  if (item === undefined) throw new RangeError("pick from an empty list");
  return item;
};

/** Running sums of `weights`, for `drawIndex`. */
export const cumulative = (weights: readonly number[]): Float64Array => {
  const sums = new Float64Array(weights.length);
  let total = 0;
  weights.forEach((w, i) => {
    total += w;
    sums[i] = total;
  });
  return sums;
};

/** An index drawn with probability proportional to its weight (binary search over the running sums). */
export const drawIndex = (rng: Rng, sums: Float64Array): number => {
  const target = rng() * (sums[sums.length - 1] ?? 0);
  let lo = 0;
  let hi = sums.length - 1;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if ((sums[mid] ?? 0) > target) hi = mid;
    else lo = mid + 1;
  }
  return lo;
};

/** A value drawn from `{value: weight}` pairs, in the order given. */
export const drawWeighted = <T>(rng: Rng, table: readonly (readonly [T, number])[]): T => {
  const total = table.reduce((sum, [, w]) => sum + w, 0);
  let target = rng() * total;
  for (const [value, weight] of table) {
    target -= weight;
    if (target < 0) return value;
  }
  const last = table[table.length - 1];
  if (last === undefined) throw new RangeError("draw from an empty table");
  return last[0];
};

/** Zipf-like weight of a 0-based popularity rank: 1 / (rank + offset)^exponent. */
export const zipfWeight = (rank: number, exponent = 1.05, offset = 2): number =>
  1 / (rank + offset) ** exponent;

/** A log-normal multiplier around 1 (median 1), for prices and rarity. */
export const logNormal = (rng: Rng, sigma: number): number => {
  const u = Math.max(rng(), 1e-12);
  const v = rng();
  return Math.exp(sigma * Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v));
};
