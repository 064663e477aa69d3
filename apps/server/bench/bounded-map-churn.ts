/**
 * The cost of an insert into a full BoundedMap while it churns through distinct keys (a flood of
 * unknown keys, a long tail of URLs): every set evicts. Prints µs per set at two sizes.
 *   pnpm --filter @gmi/server exec tsx bench/bounded-map-churn.ts
 */
import { BoundedMap } from "../src/caches/bounded-map.js";

const SETS = 200_000;
for (const entries of [10_000, 100_000]) {
  const map = new BoundedMap<string, number>(entries, Number.POSITIVE_INFINITY);
  for (let i = 0; i < entries; i++) map.set(`k${i}`, i, 1);
  // A third of the entries used once: the walk moves them young before it evicts the rest.
  for (let i = 0; i < entries; i += 3) map.get(`k${i}`);
  const started = performance.now();
  for (let i = 0; i < SETS; i++) {
    map.set(`n${i}`, i, 1);
    if (i % 5 === 0) map.get(`n${i - 1}`);
  }
  const micros = ((performance.now() - started) * 1_000) / SETS;
  console.log(`${entries} entries: ${micros.toFixed(2)} µs per set while churning`);
}
