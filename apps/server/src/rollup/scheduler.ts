import type { Clock } from "../clock.js";
import { parseCron } from "../domain/schedule/cron.js";

export type RollupScheduler = { stop(): Promise<void> };

const CHECK_EVERY_MS = 15_000;

/**
 * Runs `rollup` whenever the UTC minute matches `schedule` (ROLLUP_SCHEDULE; "off" runs nothing).
 * A run still going when the next is due is not doubled; with several replicas each runs its own,
 * and the snapshot writer's advisory lock serializes them (the second finds the work done).
 */
export const startRollupScheduler = (
  schedule: string,
  clock: Clock,
  rollup: () => Promise<void>,
  onError: (error: unknown) => void,
): RollupScheduler => {
  if (schedule === "off") return { stop: async () => {} };
  const cron = parseCron(schedule);
  let running: Promise<void> | null = null;
  let lastMinute = Number.NaN;
  const tick = () => {
    const now = clock.now();
    const minute = Math.floor(now / 60_000);
    if (minute === lastMinute) return;
    lastMinute = minute;
    if (running || !cron.matches(new Date(now))) return;
    running = rollup()
      .catch(onError)
      .finally(() => {
        running = null;
      });
  };
  const timer = setInterval(tick, CHECK_EVERY_MS);
  timer.unref();
  return {
    stop: async () => {
      clearInterval(timer);
      await running;
    },
  };
};
