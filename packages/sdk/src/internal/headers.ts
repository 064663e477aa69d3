/** The rate-limit state the server reports on every answer (spec, Limits rule 2). */
export interface RateLimit {
  /** Requests per minute of the plan. */
  limit: number;
  /** Requests left in the current one-minute window. */
  remaining: number;
  /** Seconds until the window resets, as sent. */
  reset: number;
  /** When the window resets, in epoch milliseconds (observation time + `reset`). */
  resetAt: number;
}

const int = (value: string | null): number | undefined => {
  if (value === null || value.trim() === "") return undefined;
  const n = Number(value);
  return Number.isFinite(n) ? n : undefined;
};

export const readRateLimit = (headers: Headers, now: number): RateLimit | undefined => {
  const limit = int(headers.get("x-ratelimit-limit"));
  const remaining = int(headers.get("x-ratelimit-remaining"));
  const reset = int(headers.get("x-ratelimit-reset"));
  if (limit === undefined || remaining === undefined || reset === undefined) return undefined;
  return { limit, remaining, reset, resetAt: now + reset * 1000 };
};

/** Two answers of one window report resets at most this far apart (whole seconds, network delays); windows are a minute. */
const SAME_WINDOW_MS = 30_000;

/**
 * The window state to believe after seeing `seen`: a later window replaces an earlier one; within
 * one window the lower `remaining` wins, so an answer that arrives late (concurrent calls finish in
 * any order) never raises it again.
 */
export const mergeRateLimit = (
  known: RateLimit | undefined,
  seen: RateLimit | undefined,
): RateLimit | undefined => {
  if (!known || !seen) return seen ?? known;
  if (seen.resetAt > known.resetAt + SAME_WINDOW_MS) return seen;
  if (seen.resetAt < known.resetAt - SAME_WINDOW_MS) return known;
  return seen.remaining < known.remaining ? seen : known;
};

/** `Retry-After` in seconds: an integer (what the API sends) or an HTTP date (what proxies may send). */
export const readRetryAfter = (headers: Headers, now: number): number | undefined => {
  const value = headers.get("retry-after");
  if (value === null) return undefined;
  const seconds = int(value);
  if (seconds !== undefined) return Math.max(0, seconds);
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, Math.ceil((date - now) / 1000));
};

/** Headers as a plain object for hooks, with the credential reduced to its last four characters. */
export const redact = (headers: Record<string, string>): Record<string, string> => {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    out[name] = name.toLowerCase() === "authorization" ? `Bearer ***${value.slice(-4)}` : value;
  }
  return out;
};
