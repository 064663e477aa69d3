import type { Period } from "@gmi/contract";
import { PERIOD_DAYS } from "@gmi/contract";
/** Anything that tells the time in epoch milliseconds. */
export type Clock = { now(): number };

/** A calendar day, `YYYY-MM-DD`, always read as UTC. */
export type IsoDay = string;

/** Whole UTC days, both ends included. */
export type DayWindow = { start: IsoDay; end: IsoDay };

/**
 * The same window as instants: `from` inclusive, `to` exclusive (midnight UTC after `end`), which is
 * what a `timestamptz` comparison needs: `occurred_at >= from AND occurred_at < to`.
 */
export type InstantWindow = { from: Date; to: Date };

const DAY_MS = 86_400_000;
const ISO_DAY = /^\d{4}-\d{2}-\d{2}$/;

/** Midnight UTC of a day; throws on anything but a real calendar date (no roll-over of 02-30). */
export const dayStart = (day: IsoDay): Date => {
  const date = new Date(`${day}T00:00:00.000Z`);
  if (!ISO_DAY.test(day) || Number.isNaN(date.getTime()) || !date.toISOString().startsWith(day)) {
    throw new RangeError(`not a calendar day: ${JSON.stringify(day)}`);
  }
  return date;
};

/** The UTC day an instant falls on (the `day` column of the event tables). */
export const dayOf = (instant: Date | string): IsoDay => {
  const date = typeof instant === "string" ? new Date(instant) : instant;
  if (Number.isNaN(date.getTime())) throw new RangeError(`not an instant: ${String(instant)}`);
  return date.toISOString().slice(0, 10);
};

/** Today (UTC) on the server's clock: no date after it is served or rolled up. */
export const todayOf = (clock: Clock): IsoDay => dayOf(new Date(clock.now()));

export const addDays = (day: IsoDay, days: number): IsoDay =>
  dayOf(new Date(dayStart(day).getTime() + days * DAY_MS));

/** Days from `a` to `b` (`b - a`); negative when `b` is earlier. */
export const daysBetween = (a: IsoDay, b: IsoDay): number =>
  Math.round((dayStart(b).getTime() - dayStart(a).getTime()) / DAY_MS);

/** The `days` whole days ending on `end` (end included). */
export const trailingWindow = (end: IsoDay, days: number): DayWindow => {
  if (!Number.isInteger(days) || days < 1) throw new RangeError(`window length must be >= 1: ${days}`);
  return { start: addDays(end, -(days - 1)), end };
};

/** `day` = D, `7d` = D-6..D, `30d` = D-29..D. */
export const periodWindow = (period: Period, end: IsoDay): DayWindow =>
  trailingWindow(end, PERIOD_DAYS[period]);

export const toInstantWindow = (window: DayWindow): InstantWindow => ({
  from: dayStart(window.start),
  to: dayStart(addDays(window.end, 1)),
});

export const windowLength = (window: DayWindow): number => daysBetween(window.start, window.end) + 1;

export const containsDay = (window: DayWindow, day: IsoDay): boolean =>
  day >= window.start && day <= window.end;

export function* eachDay(window: DayWindow): Generator<IsoDay> {
  for (let day = window.start; day <= window.end; day = addDays(day, 1)) yield day;
}

/**
 * An alert counts in a window when it was active at any moment of it: created before the window's
 * end and not removed before its start. A removal exactly at the window's first instant still counts
 * (the alert was live at that instant); a creation exactly at `to` does not (that is the next day).
 */
export const isWatchActive = (
  alert: { createdAt: Date; removedAt: Date | null },
  window: DayWindow,
): boolean => {
  const { from, to } = toInstantWindow(window);
  return alert.createdAt < to && (alert.removedAt === null || alert.removedAt >= from);
};
