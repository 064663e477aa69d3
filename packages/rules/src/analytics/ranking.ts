/** A total order: negative when `a` comes first. */
export type Compare<T> = (a: T, b: T) => number;

/** Descending numbers: larger first. */
export const desc = (a: number, b: number): number => b - a;
export const asc = (a: number, b: number): number => a - b;

/**
 * Plain code-unit order, not `localeCompare`: ranks are computed once and stored, and the order must
 * not depend on the ICU data or locale of the machine that computed them.
 */
export const byCodeUnits = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/** Null last whatever the direction of the non-null values. */
export const nullsLast =
  (compare: (a: number, b: number) => number) =>
  (a: number | null, b: number | null): number => {
    if (a === null || b === null) return a === null ? (b === null ? 0 : 1) : -1;
    return compare(a, b);
  };

/**
 * Positions 1..n of the items that `include` admits, in `compare` order; `null` for the others. The
 * comparator must end on a unique key (game id, query) so equal scores still get distinct, stable
 * ranks: pages cut from a rank never repeat or skip a row.
 */
export const rankBy = <T>(items: readonly T[], include: (item: T) => boolean, compare: Compare<T>) => {
  const ranks = new Map<T, number>();
  items
    .filter(include)
    .sort(compare)
    .forEach((item, index) => {
      ranks.set(item, index + 1);
    });
  return (item: T): number | null => ranks.get(item) ?? null;
};

/**
 * The items stably sorted by `key`, largest first: the order `[...items].sort((a, b) => desc(key(a),
 * key(b)))` gives, for lists whose keys take few distinct values (search counts, shares and
 * momentum values of mostly one-off queries). Items are bucketed per key in their order and the
 * distinct keys sorted, so the cost is a map lookup per item and a comparison per pair of keys,
 * not a comparator call per item per level of a merge sort (at 100k queries a period, a third of
 * the search scoring's time). Keys are numbers, never NaN.
 */
export const stableSortDescBy = <T>(items: readonly T[], key: (item: T) => number): T[] => {
  const buckets = new Map<number, T[]>();
  for (const item of items) {
    const k = key(item);
    const bucket = buckets.get(k);
    if (bucket) bucket.push(item);
    else buckets.set(k, [item]);
  }
  const sorted: T[] = new Array(items.length);
  let at = 0;
  for (const k of [...buckets.keys()].sort(desc))
    for (const item of buckets.get(k) as T[]) sorted[at++] = item;
  return sorted;
};
