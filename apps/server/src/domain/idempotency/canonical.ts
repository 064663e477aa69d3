/**
 * JSON with object keys sorted at every depth and no whitespace: two bodies that differ only in key
 * order or formatting are the same payload. Array order is kept (it is the order of the items).
 */
export const canonicalJson = (value: unknown): string => {
  if (value === null || typeof value !== "object") return JSON.stringify(value) ?? "null";
  if (Array.isArray(value))
    return `[${value.map((v) => (v === undefined ? "null" : canonicalJson(v))).join(",")}]`;
  const entries = Object.entries(value as Record<string, unknown>)
    .filter(([, v]) => v !== undefined && typeof v !== "function")
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(",")}}`;
};

/**
 * A query string with its parameters decoded and sorted (by name, then value; repeated names kept),
 * so `?date=2026-01-01&period=7d` and `?period=7d&date=2026%2D01%2D01` are the same query.
 */
export const canonicalQuery = (search: string): string => {
  const pairs = [...new URLSearchParams(search.startsWith("?") ? search.slice(1) : search)];
  pairs.sort(([ka, va], [kb, vb]) => (ka !== kb ? (ka < kb ? -1 : 1) : va < vb ? -1 : va > vb ? 1 : 0));
  return new URLSearchParams(pairs).toString();
};
