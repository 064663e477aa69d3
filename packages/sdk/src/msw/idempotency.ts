// The Idempotency-Key record of the spec's state table, as the server keeps it
// (apps/server/src/domain/idempotency/decide.ts, policy.ts, canonical.ts): in flight while the first
// request works (409 for any payload), stored for 24 hours once answered (a replay byte for byte,
// or 422 for another payload), released after a 429, a 402 or a 5xx.

/** Stored answers replay for 24 hours (spec, Limits rule 8). */
export const RETENTION_MS = 86_400_000;
/** Retry-After of a 409 (the server's CONFLICT_RETRY_AFTER_MAX_S: "wait a few seconds"). */
export const CONFLICT_RETRY_AFTER = 2;

export type StoredAnswer = { status: number; body: string; contentType: string };

export type IdempotencyRecord =
  | { state: "in_flight"; fingerprint: string }
  | { state: "stored"; fingerprint: string; expiresAt: number; answer: StoredAnswer };

export type Decision =
  | { kind: "process" }
  | { kind: "conflict" }
  | { kind: "replay"; answer: StoredAnswer }
  | { kind: "reuse" };

/** JSON with object keys sorted at every depth: key order and spacing do not make another payload. */
export const canonicalJson = (value: unknown): string => {
  if (value === null || typeof value !== "object") return JSON.stringify(value) ?? "null";
  if (Array.isArray(value))
    return `[${value.map((v) => (v === undefined ? "null" : canonicalJson(v))).join(",")}]`;
  const object = value as Record<string, unknown>;
  const keys = Object.keys(object)
    .filter((k) => object[k] !== undefined && typeof object[k] !== "function")
    .sort();
  return `{${keys.map((k) => `${JSON.stringify(k)}:${canonicalJson(object[k])}`).join(",")}}`;
};

/**
 * What "the same payload" means: method, route, the query as the route reads it (defaults filled, so
 * `?period=7d` and no period are one query; the raw query when it does not parse) and the body.
 */
export const fingerprintOf = (
  method: string,
  path: string,
  query: Record<string, unknown> | string,
  body: unknown,
): string =>
  JSON.stringify([
    method.toUpperCase(),
    path,
    typeof query === "string" ? ["raw", query] : ["parsed", canonicalJson(query)],
    canonicalJson(body),
  ]);

export const decide = (record: IdempotencyRecord | undefined, fingerprint: string, now: number): Decision => {
  if (!record) return { kind: "process" };
  if (record.state === "in_flight") return { kind: "conflict" };
  if (record.expiresAt <= now) return { kind: "process" };
  return record.fingerprint === fingerprint ? { kind: "replay", answer: record.answer } : { kind: "reuse" };
};

/** Whether an answer is kept under its key: every answer but the limits' refusals and server errors. */
export const isStored = (status: number): boolean => !(status === 429 || status === 402 || status >= 500);
