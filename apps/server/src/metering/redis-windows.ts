import type { Redis } from "ioredis";
import { LEASE_DIVISOR } from "../domain/limits/lease.js";
import type { LimiterStore } from "./window-store.js";

/**
 * Check-and-increment of every window in one round trip. Redis runs a script atomically, so two
 * servers (or two requests) can never both take the last units: a request costing N is admitted
 * only if every window has N left, and a refused request increments nothing. An admitted request
 * may also reserve a lease: up to `extra` units more, at most 1/32 of what any window has left
 * after the request (`extraWithin` in domain/limits/lease.ts, the same rule).
 * KEYS: the window counters. ARGV: cost, extra, then limit and TTL (ms) of each window.
 * Returns {admitted 1|0, blocked window index (1-based, 0 when admitted), granted, count per window...}.
 */
const CONSUME = `
local cost = tonumber(ARGV[1])
local extra = tonumber(ARGV[2])
local counts = {}
local blocked = 0
for i = 1, #KEYS do
  counts[i] = tonumber(redis.call('GET', KEYS[i]) or '0')
  local limit = tonumber(ARGV[1 + 2 * i])
  if blocked == 0 and counts[i] + cost > limit then blocked = i end
  local room = math.floor((limit - counts[i] - cost) / ${LEASE_DIVISOR})
  if room < extra then extra = room end
end
if blocked > 0 then
  return {0, blocked, 0, unpack(counts)}
end
if extra < 0 then extra = 0 end
for i = 1, #KEYS do
  counts[i] = redis.call('INCRBY', KEYS[i], cost + extra)
  redis.call('PEXPIRE', KEYS[i], ARGV[2 + 2 * i])
end
return {1, 0, extra, unpack(counts)}
`;

/** Window keys outlive their window a little so a late refund still finds its counter. */
const TTL_GRACE_MS = 5_000;

export const redisLimiterStore = (redis: Redis, prefix = "gmi:rl:"): LimiterStore => {
  const consumeCommand = "gmiRateConsume";
  redis.defineCommand(consumeCommand, { lua: CONSUME });
  const run = (redis as unknown as Record<string, (...args: Array<string | number>) => Promise<number[]>>)[
    consumeCommand
  ];
  if (!run) throw new Error("redis command not defined");
  return {
    async consume(windows, cost, now, extraUpTo = 0) {
      const args: Array<string | number> = [
        windows.length,
        ...windows.map((w) => prefix + w.key),
        cost,
        extraUpTo,
      ];
      for (const w of windows) args.push(w.limit, Math.max(1, w.resetsAt - now) + TTL_GRACE_MS);
      const [admitted, blocked, granted, ...counts] = (await run.apply(redis, args)).map(Number);
      if (admitted === 1) return { admitted: true, counts, granted: granted ?? 0 };
      return { admitted: false, counts, blocked: (blocked ?? 1) - 1 };
    },
    async peek(windows) {
      const counts = await redis.mget(...windows.map((w) => prefix + w.key));
      return counts.map((count) => Number(count ?? 0));
    },
    async refund(windows, cost) {
      const pipeline = redis.pipeline();
      for (const w of windows) pipeline.decrby(prefix + w.key, cost);
      await pipeline.exec();
    },
    async close() {},
  };
};
