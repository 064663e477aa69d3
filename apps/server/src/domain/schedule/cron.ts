/**
 * The five-field cron expressions of ROLLUP_SCHEDULE (minute hour day-of-month month day-of-week),
 * evaluated in UTC. Each field: `*`, a number, a range `a-b`, a step `*\/n` or `a-b/n`, or a
 * comma-separated list of those. Day-of-week 0 and 7 are Sunday. As in classic cron, when both
 * day fields are restricted a time matches if either does.
 */
export type CronSchedule = { matches(instant: Date): boolean };

const FIELDS = [
  { name: "minute", min: 0, max: 59 },
  { name: "hour", min: 0, max: 23 },
  { name: "day of month", min: 1, max: 31 },
  { name: "month", min: 1, max: 12 },
  { name: "day of week", min: 0, max: 7 },
] as const;

const parseField = (text: string, field: (typeof FIELDS)[number]): Set<number> | null => {
  const values = new Set<number>();
  for (const part of text.split(",")) {
    const match = /^(\*|(\d+)(?:-(\d+))?)(?:\/(\d+))?$/.exec(part);
    if (!match) throw new RangeError(`cron ${field.name}: cannot read "${part}"`);
    const [, whole, from, to, step] = match;
    const start = whole === "*" ? field.min : Number(from);
    const end = whole === "*" ? field.max : to !== undefined ? Number(to) : step ? field.max : start;
    const by = step ? Number(step) : 1;
    if (start < field.min || end > field.max || start > end || by < 1) {
      throw new RangeError(`cron ${field.name}: "${part}" is outside ${field.min}-${field.max}`);
    }
    for (let v = start; v <= end; v += by) values.add(v);
  }
  return text === "*" ? null : values;
};

export const parseCron = (expression: string): CronSchedule => {
  const parts = expression.trim().split(/\s+/);
  if (parts.length !== 5) throw new RangeError("a cron expression has five fields");
  const [minute, hour, dayOfMonth, month, dayOfWeek] = parts.map((p, i) =>
    parseField(p, FIELDS[i] as (typeof FIELDS)[number]),
  );
  if (dayOfWeek?.has(7)) dayOfWeek.add(0);
  const has = (set: Set<number> | null | undefined, value: number) => !set || set.has(value);
  return {
    matches(instant) {
      const dayMatches =
        dayOfMonth && dayOfWeek
          ? dayOfMonth.has(instant.getUTCDate()) || dayOfWeek.has(instant.getUTCDay())
          : has(dayOfMonth, instant.getUTCDate()) && has(dayOfWeek, instant.getUTCDay());
      return (
        has(minute, instant.getUTCMinutes()) &&
        has(hour, instant.getUTCHours()) &&
        has(month, instant.getUTCMonth() + 1) &&
        dayMatches
      );
    },
  };
};
