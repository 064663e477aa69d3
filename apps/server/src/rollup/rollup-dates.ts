import type { Period } from "@gmi/contract";
import { MIN_DATE, PERIODS } from "@gmi/contract";
import { analyzeSnapshots, computedDates, eventDayRuns } from "../data/snapshots.js";
import type { Database } from "../db/open.js";
import { buildConditionRows } from "../domain/analytics/conditions.js";
import { type DayRun, runsMeet } from "../domain/analytics/day-runs.js";
import { buildLiquidityRows } from "../domain/analytics/liquidity.js";
import { buildSearchRows } from "../domain/analytics/search-rows.js";
import type { ScoringConfig } from "../domain/analytics/weights.js";
import { addDays, type IsoDay, periodWindow } from "../domain/analytics/windows.js";
import { loadEventAggregates } from "./analytics-aggregates.js";
import { staleSnapshotDates } from "./cell-versions.js";
import { refreshCells } from "./event-cells.js";
import { loadQueryAggregateHalves } from "./search-aggregates.js";
import { beginSnapshot, type SnapshotPart } from "./snapshot-writer.js";

export type RollupProgress = { date: IsoDay; index: number; total: number; durationMs: number };

/** Largest first: the 30-day snapshot's write is the longest, so it starts first. */
const WRITE_ORDER: readonly Period[] = ["30d", "7d", "day"];

/** Lets pending I/O (a COPY already under way) run before the next stretch of CPU work. */
const yieldToIo = () => new Promise<void>((resolve) => setImmediate(resolve));

/** An aggregate, once loaded: scores the rows it gives a period's snapshot (some tables or scopes). */
type Part = Promise<(period: Period) => SnapshotPart>;

/**
 * Computes and stores the three snapshots (day, 7d, 30d) of one date, each in a transaction of its
 * own. On PostgreSQL the aggregates are asked at once, and each is scored and written as soon as it
 * arrives, on three connections (one per period), while the others are still being computed: the
 * search aggregate's two halves arrive far apart, and a write overlapping an aggregate uses a core
 * that would otherwise wait. The embedded database multiplexes every connection onto one session,
 * where nothing else may run inside a snapshot's transaction: there everything is loaded first and
 * the periods are written one after the other. Each aggregate slides the previous date's windows by
 * a day when its snapshots still describe the cells, else reads whole windows (search-aggregates.ts,
 * event-slide.ts); the snapshots keep the cells version they were read at (cell-versions.ts).
 */
export const rollupDate = async (
  db: Database,
  date: IsoDay,
  scoring: ScoringConfig,
): Promise<RollupResult> => {
  const started = performance.now();
  await refreshCells(db.pool);
  const dayHasEvents = (await eventDayRuns(db.pool, periodWindow("day", date))).length > 0;
  const copy = !db.embedded;
  const events = loadEventAggregates(db.pool, date, { copy });
  const searchHalves = loadQueryAggregateHalves(db.pool, date, { copy });
  const parts: Part[] = [
    events.then(({ games, conditions }) => (period) => ({
      liquidity: buildLiquidityRows(games[period], scoring),
      conditions: [...conditions[period]].flatMap(([gameId, aggregates]) =>
        buildConditionRows(gameId, aggregates),
      ),
    })),
    ...searchHalves.map((half) =>
      half.then(({ periods }) => (period: Period) => ({
        searches: buildSearchRows(periods[period], scoring),
      })),
    ),
  ];
  // The snapshots are as old as their oldest part's cells (cell-versions.ts).
  const cellsVersion = Promise.all([events, ...searchHalves]).then((read) =>
    Math.min(...read.map((part) => part.cellsVersion)),
  );
  // A failed part is reported by the writers; this keeps one no writer waited for (its own start
  // failed first) from going unobserved.
  for (const part of [...parts, cellsVersion]) part.catch(() => {});
  const write = (period: Period) =>
    writeSnapshot(
      db,
      { period, date },
      { parts, cellsVersion, dayHasEvents },
      () => performance.now() - started,
    );
  if (db.embedded) {
    await settleAll(parts);
    for (const period of WRITE_ORDER) await write(period);
  } else {
    await settleAll(WRITE_ORDER.map(write));
  }
  return {
    durationMs: performance.now() - started,
    searchesSlid: (await Promise.all(searchHalves)).every((half) => half.slid),
    eventsSlid: (await events).slid,
  };
};

export type RollupResult = {
  durationMs: number;
  /** Whether the windows were slid from the previous date's snapshots (search-aggregates.ts, event-slide.ts). */
  searchesSlid: boolean;
  eventsSlid: boolean;
};

/**
 * Writes one period's snapshot from the parts as they arrive. Its connection is taken when the
 * first part has arrived, so the aggregates, asked earlier, are ahead of it in the pool's queue
 * whatever the pool's size.
 */
const writeSnapshot = async (
  db: Database,
  key: { period: Period; date: IsoDay },
  {
    parts,
    cellsVersion,
    dayHasEvents,
  }: { parts: readonly Part[]; cellsVersion: Promise<number>; dayHasEvents: boolean },
  elapsedMs: () => number,
): Promise<void> => {
  await Promise.race(parts).catch(() => {});
  const client = await db.pool.connect();
  try {
    const snapshot = await beginSnapshot(client, key, { copy: !db.embedded });
    try {
      await settleAll(
        parts.map(async (part) => {
          const rowsFor = await part;
          await yieldToIo();
          await snapshot.add(rowsFor(key.period));
        }),
      );
      await snapshot.commit({ durationMs: elapsedMs(), cellsVersion: await cellsVersion, dayHasEvents });
    } catch (error) {
      await snapshot.rollback();
      throw error;
    }
  } finally {
    client.release();
  }
};

/** Waits for every promise (none is left running unobserved), then throws the first failure. */
const settleAll = async <T>(promises: readonly Promise<T>[]): Promise<T[]> => {
  const settled = await Promise.allSettled(promises);
  const failed = settled.find((s): s is PromiseRejectedResult => s.status === "rejected");
  if (failed) throw failed.reason;
  return settled.map((s) => (s as PromiseFulfilledResult<T>).value);
};

/**
 * `today` is the server clock's UTC day: no date after it is rolled up (its windows would describe
 * days that have not happened), and the default end is the latest day with events up to it.
 * `allowEmpty`: roll up dates whose 30-day window has no event too (else they are left out).
 */
export type RollupPlan = { end?: IsoDay; days: number; force: boolean; today: IsoDay; allowEmpty?: boolean };

/** What a rollup did with each date asked for, and the days with events. */
export type RollupReport = {
  /** The dates computed, oldest first. */
  computed: IsoDay[];
  /** Dates left as they were: their snapshots exist and still describe the events (no `force`). */
  upToDate: IsoDay[];
  /** Dates left out because no event falls in their 30-day window (and `allowEmpty` was not set). */
  withoutEvents: IsoDay[];
  /** The days with events up to today, as runs: what a refusal names. */
  eventRuns: DayRun[];
};

/** A rollup asked for a date after today: refused before any work. */
export class FutureDateRefused extends Error {
  constructor(
    readonly date: IsoDay,
    readonly today: IsoDay,
  ) {
    super(`${date} is in the future (today is ${today} UTC); a date can be rolled up from its own day on`);
    this.name = "FutureDateRefused";
  }
}

/**
 * Rolls up `days` dates ending at `end` (default: the latest day with events, not after today).
 * Incremental: a date whose three snapshots exist is skipped unless `force`, or unless events loaded
 * since changed the cells of its window. A date without any event in its 30-day window would be a
 * snapshot of nothing: it is left out unless `allowEmpty`, and said so in the report. Throws
 * FutureDateRefused when `end` is after `today`.
 */
export const rollupDates = async (
  db: Database,
  plan: RollupPlan,
  scoring: ScoringConfig,
  onProgress: (progress: RollupProgress) => void = () => {},
): Promise<RollupReport> => {
  if (plan.end !== undefined && plan.end > plan.today) throw new FutureDateRefused(plan.end, plan.today);
  const eventRuns = await eventDayRuns(db.pool, { start: MIN_DATE, end: plan.today });
  const end = plan.end ?? eventRuns.at(-1)?.last;
  if (!end) return { computed: [], upToDate: [], withoutEvents: [], eventRuns };
  const wanted = Array.from({ length: plan.days }, (_, i) => addDays(end, i - plan.days + 1));
  const withoutEvents = plan.allowEmpty
    ? []
    : wanted.filter((date) => !runsMeet(eventRuns, periodWindow("30d", date)));
  const candidates = wanted.filter((date) => !withoutEvents.includes(date));
  // Events written outside the importer are rebuilt into cells first, so their days count as changed.
  if (!plan.force) await refreshCells(db.pool);
  const done = plan.force ? new Set<IsoDay>() : await completeDates(db, candidates);
  const todo = candidates.filter((d) => !done.has(d));
  for (const [index, date] of todo.entries()) {
    const { durationMs } = await rollupDate(db, date, scoring);
    onProgress({ date, index: index + 1, total: todo.length, durationMs });
  }
  // Fresh planner statistics for the new snapshot rows: with stale ones a 100-game profile read
  // measured 14 ms instead of 1 ms.
  if (todo.length > 0) await analyzeSnapshots(db.pool);
  return { computed: todo, upToDate: candidates.filter((d) => done.has(d)), withoutEvents, eventRuns };
};

/** Dates whose three snapshots exist and still describe the events (an import since makes them stale). */
const completeDates = async (db: Database, dates: IsoDay[]): Promise<Set<IsoDay>> => {
  const perPeriod = await Promise.all(PERIODS.map((p: Period) => computedDates(db.pool, p)));
  const stale = await staleSnapshotDates(db.pool, dates);
  return new Set(dates.filter((d) => perPeriod.every((set) => set.has(d)) && !stale.has(d)));
};
