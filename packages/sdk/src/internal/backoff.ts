/** The backoff of retried 5xx answers and network failures (exponential, full jitter, capped). */
export interface BackoffOptions {
  /** First retry's ceiling in ms (default 500). */
  baseDelayMs?: number;
  /** Ceiling of any backoff delay in ms (default 8,000). */
  maxDelayMs?: number;
}

/**
 * "Full jitter" (AWS architecture blog): a uniform delay in [0, min(cap, base * 2^(retry-1))), so
 * clients that failed together do not retry together.
 */
export const backoffDelay = (retry: number, options: BackoffOptions = {}): number => {
  const base = options.baseDelayMs ?? 500;
  const cap = options.maxDelayMs ?? 8_000;
  const ceiling = Math.min(cap, base * 2 ** Math.max(0, retry - 1));
  return Math.floor(Math.random() * ceiling);
};
