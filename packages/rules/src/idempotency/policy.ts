/**
 * The numbers and rules of the idempotency record (spec, "States and transitions"; the reasons are
 * in docs/idempotency.md).
 */

/** Stored responses answer replays for 24 hours after they were stored (spec, Limits rule 8). */
export const RETENTION_MS = 24 * 60 * 60 * 1000;

/**
 * How long a claim holds its key without news from its holder. The holder renews it every
 * HEARTBEAT_MS while it works, so only a dead holder (process killed, machine gone) lets it lapse:
 * a key is never stuck for longer than LEASE_MS, and a slow batch is never processed twice.
 */
export const LEASE_MS = 30_000;
export const HEARTBEAT_MS = 10_000;
/**
 * The heartbeat stops after this long whatever happens, so a request that never settles (a bug, a
 * hung socket) cannot pin its key: no batch takes anywhere near this long.
 */
export const MAX_HOLD_MS = 5 * 60 * 1000;

/**
 * Retry-After of a 409: the spec says "wait a few seconds"; a batch takes well under a second, so
 * the remaining lease (up to 30 s) would be far too pessimistic.
 */
export const CONFLICT_RETRY_AFTER_MAX_S = 2;

/** How often each server instance deletes expired records. */
export const PURGE_INTERVAL_MS = 10 * 60 * 1000;
/** Rows per purge statement, so a purge never holds many row locks at once. */
export const PURGE_BATCH = 1_000;

/**
 * Response headers kept with a stored response and sent again on replay. Everything else is about
 * the request being answered now, not the original: X-Request-Id names this request in our logs,
 * X-RateLimit-* describe the window as it is now, and Idempotency-Replayed is added.
 */
export const STORED_HEADERS = ["content-type"] as const;

/**
 * What happens to a claimed key once its request is answered. Stored: every answer to a request
 * that was admitted and metered, success or not, so a retry never pays twice nor gets a different
 * answer. Released (the key is free again): refusals by the limits (429, 402; nothing was charged
 * and waiting fixes them) and server errors (5xx; the client is told to retry them).
 */
export const outcomeOf = (status: number): "store" | "release" =>
  status === 429 || status === 402 || status >= 500 ? "release" : "store";

/** The STORED_HEADERS of a response, as strings. */
export const storedHeadersOf = (headers: Record<string, unknown>): Record<string, string> => {
  const kept: Record<string, string> = {};
  for (const name of STORED_HEADERS) {
    const value = headers[name];
    if (value !== undefined) kept[name] = Array.isArray(value) ? value.join(", ") : String(value);
  }
  return kept;
};
