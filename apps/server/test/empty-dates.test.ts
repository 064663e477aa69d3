import { readFile } from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { rollupCommand } from "../src/cli/commands/analytics.js";
import { CliError } from "../src/cli/io.js";
import { manualClock, systemClock } from "../src/clock.js";
import { MIGRATIONS_DIR, migrationNames } from "../src/db/migrate.js";
import { DEFAULT_SCORING } from "../src/domain/analytics/weights.js";
import { addDays, todayOf } from "../src/domain/analytics/windows.js";
import { scheduledRollup } from "../src/rollup/scheduler.js";
import type { TestApp } from "./helpers/app.js";
import { bearer, startTestApp } from "./helpers/app.js";
import { useTestDatabase, withClient } from "./helpers/setup.js";
import { createTenant } from "./helpers/tenant.js";

/**
 * No empty default day (issue 26, item 4). Events on TODAY-3 and TODAY-1, none today: today's
 * 30-day window has events (it may be rolled up) but its own day has none, so it never becomes a
 * default; 2000-01-01's window has none at all (refused without --allow-empty). `gmi rollup` works
 * on the real clock's today, so TODAY is that day.
 */
const TODAY = todayOf(systemClock);
const EVENT_DAYS = [addDays(TODAY, -3), addDays(TODAY, -1)];
const LATEST = addDays(TODAY, -1);
const EMPTY = "2000-01-01";
const db = useTestDatabase();
const clock = manualClock(new Date(`${TODAY}T23:00:00Z`));
let t: TestApp;
let key: string;

beforeAll(async () => {
  for (const day of EVENT_DAYS) {
    await db().pool.query(
      "INSERT INTO redirect_events (game_id, user_id, occurred_at, day, device) VALUES (101, 'u1', $1, $2, 'mobile')",
      [`${day}T12:00:00Z`, day],
    );
    await db().pool.query(
      `INSERT INTO search_events (raw_query, query, user_id, occurred_at, day, source, device, result_count)
       VALUES ('chrono', 'chrono', 'u1', $1, $2, 'site', 'mobile', 4)`,
      [`${day}T10:00:00Z`, day],
    );
  }
  t = await startTestApp(db().pool, { clock });
  key = (await createTenant(db().pool)).key;
}, 60_000);
afterAll(() => t?.close());

const snapshotDates = async () =>
  (
    await db().pool.query<{ day: string }>(
      "SELECT DISTINCT to_char(date, 'YYYY-MM-DD') AS day FROM snapshots ORDER BY day",
    )
  ).rows.map((r) => r.day);

const gmiRollup = async (args: string[]) => {
  let printed = "";
  const io = {
    stdout: (s: string) => {
      printed += s;
    },
    stderr: () => {},
  };
  const result = await rollupCommand(args, {
    db: db(),
    scoring: DEFAULT_SCORING,
    io,
    json: false,
    cli: "gmi",
  });
  return { result, printed };
};

const defaultDates = async () => {
  const dates: Record<string, string> = {};
  for (const url of [
    "/api/v1/intelligence?period=day",
    "/api/v1/intelligence",
    "/api/v1/intelligence?period=30d",
    "/api/v1/demand-intent/searches?period=day",
    "/api/v1/demand-intent/searches/conditions",
    "/api/v1/intelligence/101",
  ]) {
    const response = await t.app.inject({ url, headers: bearer(key) });
    expect(response.statusCode, `${url}: ${response.body}`).toBe(200);
    dates[url] = response.json().meta.period_date;
  }
  const history = await t.app.inject({ url: "/api/v1/intelligence/101/history", headers: bearer(key) });
  dates.history = history.json().meta.to;
  return dates;
};

describe("the scheduled rollup", () => {
  it("writes the latest day with events and the dates whose windows have some, never an empty today", async () => {
    const run = await scheduledRollup(db(), DEFAULT_SCORING, TODAY);
    expect(run.computed).toEqual([LATEST, addDays(TODAY, -3), addDays(TODAY, -2)]);
    // The 30 dates ending on LATEST: those before the first event day have an empty window.
    expect(run.withoutEvents).toEqual(
      Array.from({ length: 30 }, (_, i) => addDays(LATEST, i - 29)).filter((d) => d < addDays(TODAY, -3)),
    );
    expect(await snapshotDates()).toEqual([addDays(TODAY, -3), addDays(TODAY, -2), LATEST]);
  });
});

describe("gmi rollup of a date without events", () => {
  it("is refused when its 30-day window has none, naming the days that have events", async () => {
    const refused = gmiRollup(["--date", EMPTY]);
    await expect(refused).rejects.toBeInstanceOf(CliError);
    await expect(refused).rejects.toThrow(
      `refused: ${EMPTY}: no event in its 30-day window, so no snapshot of it (events exist on ${EVENT_DAYS[0]} and ${EVENT_DAYS[1]}); to write it anyway (read only by date, never a default): add --allow-empty`,
    );
    expect(await snapshotDates()).not.toContain(EMPTY);
  });

  it("skips such dates in a range, saying so, and rolls up the others", async () => {
    const { result, printed } = await gmiRollup(["--date", LATEST, "--days", "5", "--force"]);
    expect(result.computed).toEqual([addDays(TODAY, -3), addDays(TODAY, -2), LATEST]);
    expect(printed).toContain(
      `skipped 2 dates (${addDays(TODAY, -5)} .. ${addDays(TODAY, -4)}): no event in their 30-day window`,
    );
  });

  it("moves no default date, today (window with events, day without) or forced with --allow-empty", async () => {
    const before = await defaultDates();
    expect(new Set(Object.values(before))).toEqual(new Set([LATEST]));
    expect((await gmiRollup(["--date", TODAY])).result.computed).toEqual([TODAY]);
    expect((await gmiRollup(["--date", EMPTY, "--allow-empty"])).result.computed).toEqual([EMPTY]);
    expect(await snapshotDates()).toEqual(expect.arrayContaining([EMPTY, TODAY]));
    // Past the second for which the latest snapshot is kept (reads/snapshot.ts).
    clock.advance(2_000);
    expect(await defaultDates()).toEqual(before);
    // Both are there when asked for by date: today's day is empty, its 7 days are not.
    const day = await t.app.inject({
      url: `/api/v1/intelligence?period=day&date=${TODAY}`,
      headers: bearer(key),
    });
    expect(day.json()).toMatchObject({ data: [], meta: { period_date: TODAY } });
    const week = await t.app.inject({ url: `/api/v1/intelligence?date=${TODAY}`, headers: bearer(key) });
    expect(week.json().data.length).toBeGreaterThan(0);
  });
});

describe("the day_has_events migration", () => {
  it("marks the snapshots computed before it as the rollup marks them now", async () => {
    const name = (await migrationNames()).find((n) =>
      n.endsWith("_snapshots_know_whether_their_day_has_events"),
    );
    const sql = await readFile(path.join(MIGRATIONS_DIR, name as string, "migration.sql"), "utf8");
    const backfill = sql.slice(sql.indexOf("UPDATE"));
    const FLAGS =
      "SELECT to_char(date, 'YYYY-MM-DD') AS day, period, day_has_events FROM snapshots ORDER BY 1, 2";
    const written = (await db().pool.query(FLAGS)).rows;
    expect(written.filter((r) => !r.day_has_events).map((r) => r.day)).toEqual(
      expect.arrayContaining([EMPTY, TODAY]),
    );
    await withClient(db(), async (client) => {
      await client.query("BEGIN");
      // Every flag set first, so a backfill that wrote nothing could not pass.
      await client.query("UPDATE snapshots SET day_has_events = true");
      await client.query(backfill);
      const { rows } = await client.query(FLAGS);
      await client.query("ROLLBACK");
      expect(rows).toEqual(written);
    });
  });
});
