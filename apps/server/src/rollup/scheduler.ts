import type { Clock } from "../clock.js";
import type { Database } from "../db/open.js";
import type { ScoringConfig } from "../domain/analytics/weights.js";
import type { IsoDay } from "../domain/analytics/windows.js";
import { parseCron } from "../domain/schedule/cron.js";
import { rollupDates } from "./rollup-dates.js";

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

/**
 * What a scheduled run rolls up: the latest day with events up to `today` again (its events may
 * still have been arriving), then any date of the 30 ending on it not computed yet. A date without
 * an event in its 30-day window is left out, never written (so a quiet or future-less today never
 * becomes a snapshot, let alone a default date); the run says which.
 */
export const scheduledRollup = async (
  db: Database,
  scoring: ScoringConfig,
  today: IsoDay,
): Promise<{ computed: IsoDay[]; withoutEvents: IsoDay[] }> => {
  const latest = await rollupDates(db, { days: 1, force: true, today }, scoring);
  const missing = await rollupDates(db, { days: 30, force: false, today }, scoring);
  return { computed: [...latest.computed, ...missing.computed], withoutEvents: missing.withoutEvents };
};
