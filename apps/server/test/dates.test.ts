import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { rollupCommand } from "../src/cli/commands/analytics.js";
import { CliError } from "../src/cli/io.js";
import { manualClock } from "../src/clock.js";
import { DEFAULT_SCORING } from "../src/domain/analytics/weights.js";
import { addDays } from "../src/domain/analytics/windows.js";
import { FutureDateRefused, rollupDate, rollupDates } from "../src/rollup/rollup-dates.js";
import type { TestApp } from "./helpers/app.js";
import { bearer, startTestApp } from "./helpers/app.js";
import { useTestDatabase } from "./helpers/setup.js";
import { createTenant } from "./helpers/tenant.js";

/**
 * Dates against the server's clock (issue 21, item 2): today is TODAY on a manual clock. Computed:
 * TODAY-5..TODAY-4 and TODAY-2..TODAY (a gap at TODAY-3), plus a snapshot of a future date written
 * straight through rollupDate, as rollups did before they refused future dates.
 */
const TODAY = "2026-11-20";
const FUTURE = addDays(TODAY, 3);
const db = useTestDatabase();
let t: TestApp;
let key: string;

const redirect = (gameId: number, day: string) =>
  db().pool.query(
    `INSERT INTO redirect_events (game_id, user_id, occurred_at, day, condition, device)
     VALUES ($1, 'u1', $2, $3, NULL, 'mobile')`,
    [gameId, `${day}T12:00:00Z`, day],
  );
const snapshotDates = async (period = "7d") =>
  (
    await db().pool.query<{ day: string }>(
      "SELECT to_char(date, 'YYYY-MM-DD') AS day FROM snapshots WHERE period = $1 ORDER BY date",
      [period],
    )
  ).rows.map((r) => r.day);

beforeAll(async () => {
  for (let back = 6; back >= 0; back--) await redirect(101, addDays(TODAY, -back));
  // One event dated in the future: it must not move any default date.
  await redirect(103, addDays(TODAY, 10));
  for (const back of [5, 4, 2, 1, 0]) await rollupDate(db(), addDays(TODAY, -back), DEFAULT_SCORING);
  await rollupDate(db(), FUTURE, DEFAULT_SCORING);
  const clock = manualClock(new Date(`${TODAY}T15:00:00Z`));
  t = await startTestApp(db().pool, { clock });
  key = (await createTenant(db().pool)).key;
}, 60_000);
afterAll(() => t?.close());

const get = (url: string) => t.app.inject({ url, headers: bearer(key) });

describe("the API's default date", () => {
  it("is the latest computed date that is not in the future", async () => {
    expect(await snapshotDates()).toContain(FUTURE);
    for (const url of [
      "/api/v1/intelligence",
      "/api/v1/demand-intent/searches",
      "/api/v1/demand-intent/searches/conditions",
      "/api/v1/intelligence/101",
    ]) {
      const response = await get(url);
      expect(response.statusCode, `${url}: ${response.body}`).toBe(200);
      expect(response.json().meta.period_date, url).toBe(TODAY);
    }
  });

  it("is the same in a batch", async () => {
    const response = await t.app.inject({
      method: "POST",
      url: "/api/v1/intelligence/batch",
      headers: { ...bearer(key), "content-type": "application/json" },
      payload: { requests: [{ game_id: 101 }] },
    });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json().meta.period_date).toBe(TODAY);
  });
});

describe("a date without data", () => {
  it("is a 422 listing the computed runs with their gap, and no future date", async () => {
    const response = await get(`/api/v1/intelligence?date=${addDays(TODAY, -3)}`);
    expect(response.statusCode).toBe(422);
    const { message, details } = response.json().error;
    expect(details.issues[0]).toMatchObject({ location: "query", field: "date" });
    expect(message).toContain(
      `dates available: ${addDays(TODAY, -5)} to ${addDays(TODAY, -4)} and ${addDays(TODAY, -2)} to ${TODAY}`,
    );
    expect(message).not.toContain(FUTURE);
    expect(details.available_dates).toEqual([
      { first: addDays(TODAY, -5), last: addDays(TODAY, -4) },
      { first: addDays(TODAY, -2), last: TODAY },
    ]);
  });

  it("is a 422 for a future date even when a snapshot of it exists", async () => {
    const response = await get(`/api/v1/demand-intent/searches?date=${FUTURE}`);
    expect(response.statusCode).toBe(422);
    expect(response.json().error.message).toMatch(`is in the future (today is ${TODAY} UTC)`);
  });
});

describe("rollup and the clock", () => {
  it("refuses a future date before any work", async () => {
    const tomorrow = addDays(TODAY, 1);
    await expect(
      rollupDates(db(), { end: tomorrow, days: 1, force: true, today: TODAY }, DEFAULT_SCORING),
    ).rejects.toBeInstanceOf(FutureDateRefused);
    expect(await snapshotDates("day")).not.toContain(tomorrow);
  });

  it("rolls up the latest day with events up to today by default, not a future event's day", async () => {
    const { computed } = await rollupDates(db(), { days: 1, force: true, today: TODAY }, DEFAULT_SCORING);
    expect(computed).toEqual([TODAY]);
  });

  it("gmi rollup --date in the future is a usage error naming today", async () => {
    let printed = "";
    const io = {
      stdout: (s: string) => {
        printed += s;
      },
      stderr: () => {},
    };
    const run = rollupCommand(["--date", "2999-01-01"], {
      db: db(),
      scoring: DEFAULT_SCORING,
      io,
      json: false,
      cli: "gmi",
    });
    await expect(run).rejects.toBeInstanceOf(CliError);
    await expect(run).rejects.toThrow(
      /--date 2999-01-01 is in the future \(today is \d{4}-\d{2}-\d{2} UTC\)/,
    );
    expect(printed).toBe("");
    expect(await snapshotDates("day")).not.toContain("2999-01-01");
  });
});
