/**
 * JSON with object keys sorted at every depth and no whitespace: two bodies that differ only in key
 * order or formatting are the same payload. Array order is kept (it is the order of the items).
 */
export const canonicalJson = (value: unknown): string => {
  if (value === null || typeof value !== "object") return JSON.stringify(value) ?? "null";
  // Loops rather than entries/map/join: a batch body is hundreds of small objects per request.
  if (Array.isArray(value)) {
    let json = "[";
    for (let i = 0; i < value.length; i++) {
      if (i > 0) json += ",";
      const item: unknown = value[i];
      json += item === undefined ? "null" : canonicalJson(item);
    }
    return `${json}]`;
  }
  const object = value as Record<string, unknown>;
  const keys = Object.keys(object).filter((k) => object[k] !== undefined && typeof object[k] !== "function");
  // The default sort compares UTF-16 code units, as `<` on strings does.
  if (keys.length > 1) keys.sort();
  let json = "{";
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i] as string;
    if (i > 0) json += ",";
    json += `${JSON.stringify(key)}:${canonicalJson(object[key])}`;
  }
  return `${json}}`;
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
