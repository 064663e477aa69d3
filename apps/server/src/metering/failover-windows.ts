import type { Redis } from "ioredis";
import type pino from "pino";
import { redisLimiterStore } from "./redis-windows.js";
import type { LimiterStore } from "./window-store.js";
import { memoryLimiterStore } from "./window-store.js";

export type FailoverOptions = {
  /**
   * A shared-store call slower than this counts as a failure (the request must not wait on it).
   * Default 1 s: a refused connection fails at once anyway, and a busy machine (2 cores under
   * load) can take a few hundred milliseconds to answer without Redis being down; failing over
   * then would make the limits per replica for no outage.
   */
  timeoutMs?: number;
  /** After a failure, calls go to the fallback for this long before the shared store is tried again. */
  retryMs?: number;
  now?: () => number;
  onDown(error: unknown): void;
  onUp(): void;
};

const withTimeout = <T>(work: Promise<T>, ms: number): Promise<T> =>
  new Promise((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`rate limiter store did not answer within ${ms} ms`)),
      ms,
    );
    work.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(error);
      },
    );
  });

/**
 * Fail-open rate limiting (docs/internals/outages.md, "Redis down"): the shared store (Redis) while it
 * answers; when it fails or is slow, this replica's own windows (`fallback`) until a retry, every
 * `retryMs`, finds it back. `onDown` and `onUp` fire once per outage, for the log line and /readyz.
 * The limits are then per replica, not lost, and no request fails because Redis did.
 */
export const failoverLimiterStore = (
  shared: LimiterStore,
  fallback: LimiterStore,
  options: FailoverOptions,
): LimiterStore & { healthy(): boolean } => {
  const timeoutMs = options.timeoutMs ?? 1_000;
  const retryMs = options.retryMs ?? 1_000;
  const now = options.now ?? Date.now;
  let downSince: number | null = null;
  let retryAt = 0;

  const useShared = () => downSince === null || now() >= retryAt;
  const failed = (error: unknown) => {
    retryAt = now() + retryMs;
    if (downSince === null) {
      downSince = now();
      options.onDown(error);
    }
  };
  const succeeded = () => {
    if (downSince !== null) {
      downSince = null;
      options.onUp();
    }
  };

  return {
    healthy: () => downSince === null,
    async consume(windows, cost, at, extraUpTo) {
      if (useShared()) {
        try {
          const result = await withTimeout(shared.consume(windows, cost, at, extraUpTo), timeoutMs);
          succeeded();
          return result;
        } catch (error) {
          failed(error);
        }
      }
      return fallback.consume(windows, cost, at, extraUpTo);
    },
    async peek(windows, at) {
      if (useShared()) {
        try {
          const counts = await withTimeout(shared.peek(windows, at), timeoutMs);
          succeeded();
          return counts;
        } catch (error) {
          failed(error);
        }
      }
      return fallback.peek(windows, at);
    },
    async refund(windows, cost) {
      // Given back where it was most likely taken; a refund lost to an outage errs toward the client.
      const store = downSince === null ? shared : fallback;
      await withTimeout(store.refund(windows, cost), timeoutMs).catch(failed);
    },
    async close() {
      await Promise.allSettled([shared.close(), fallback.close()]);
    },
  };
};

/**
 * The limiter of a server with REDIS_URL: Redis, failing open to this process's windows, with one
 * log line when Redis goes and one when it is back. ioredis's own error events are silenced here
 * (one per reconnect attempt would flood the log; the outage is logged once).
 */
export const redisBackedLimiter = (
  redis: Redis,
  logger: Pick<pino.Logger, "error" | "info">,
  keyPrefix?: string,
) => {
  redis.on("error", () => {});
  return failoverLimiterStore(redisLimiterStore(redis, keyPrefix), memoryLimiterStore(), {
    onDown: (error) =>
      logger.error(
        { err: error },
        "redis unreachable: rate limits are counted per replica until it answers again",
      ),
    onUp: () => logger.info("redis reachable again: rate limits are shared across replicas"),
  });
};
