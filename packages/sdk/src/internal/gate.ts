import { RateLimitError } from "./errors.js";
import { sleep } from "./sleep.js";

/**
 * One per client: a 429 closes it until its `Retry-After` has passed, and every call (queued,
 * concurrent or new) waits here before sending, instead of each discovering the limit on its own.
 */
export class RateLimitGate {
  private until = 0;
  private cause: RateLimitError | undefined;

  close(untilMs: number, cause: RateLimitError): void {
    if (untilMs > this.until) {
      this.until = untilMs;
      this.cause = cause;
    }
  }

  /** Milliseconds until the gate opens (0 when open). */
  remaining(): number {
    return Math.max(0, this.until - Date.now());
  }

  /**
   * Waits for the gate to open; throws a RateLimitError carrying `retryAfter` instead of sleeping when
   * the wait is longer than the caller allows.
   */
  async pass(maxWaitMs: number, signal: AbortSignal | undefined, attempts: number): Promise<void> {
    for (let wait = this.remaining(); wait > 0; wait = this.remaining()) {
      if (wait > maxWaitMs && this.cause) {
        const retryAfter = Math.ceil(wait / 1000);
        throw new RateLimitError({
          ...this.cause,
          message: `429 rate_limit_exceeded: the API asked to wait ${retryAfter} s, longer than this call allows (request ${this.cause.requestId ?? "unknown"})`,
          retryAfter,
          attempts,
          idempotencyKey: undefined,
          cause: this.cause,
        });
      }
      await sleep(wait, signal);
    }
  }
}
