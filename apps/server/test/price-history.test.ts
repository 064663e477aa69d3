import { writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { contract } from "@gmi/contract";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { manualClock } from "../src/clock.js";
import { DEFAULT_SCORING } from "../src/domain/analytics/weights.js";
import { importFile } from "../src/jobs/import.js";
import { rollupDates } from "../src/rollup/rollup-dates.js";
import { bearer, startTestApp, type TestApp } from "./helpers/app.js";
import { useTestDatabase } from "./helpers/setup.js";
import { createTenant } from "./helpers/tenant.js";

/**
 * Price history end to end: NDJSON files through `gmi import` (PostgreSQL, or the embedded database
 * without TEST_DATABASE_URL), the runs they leave in price_observations, the catalog's current
 * prices, and the daily series of /intelligence/{id}/history.
 */
const db = useTestDatabase({ catalog: false });
const clock = manualClock(new Date("2026-11-21T12:00:00Z"));
let t: TestApp;
let key: string;

type Prices = { loose: string | null; complete?: string | null; new?: string | null };
const CONSOLE = '{"type":"console","id":1,"name":"Super Nintendo","slug":"snes"}';
const game = (id: number, prices: Prices | null, observedAt?: string) =>
  JSON.stringify({
    type: "game",
    id,
    console_id: 1,
    display_game_name: `Game ${id}`,
    marketplace_game_name: `game-${id}`,
    prices,
    ...(observedAt ? { observed_at: observedAt } : {}),
  });

let files = 0;
const load = async (lines: string[]) => {
  files += 1;
  const file = path.join(tmpdir(), `gmi-prices-${process.pid}-${files}.ndjson`);
  await writeFile(file, `${lines.join("\n")}\n`);
  return importFile(db(), file, () => {}, undefined, { clock });
};
const runs = async (id: number) =>
  (
    await db().pool.query<{ first: string; last: string; loose: string | null }>(
      `SELECT to_char(observed_at AT TIME ZONE 'UTC', 'MM-DD HH24:MI') AS first,
         to_char(last_observed_at AT TIME ZONE 'UTC', 'MM-DD HH24:MI') AS last, price_loose::text AS loose
       FROM price_observations WHERE game_id = $1 ORDER BY observed_at`,
      [id],
    )
  ).rows.map((r) => `${r.first}..${r.last} ${r.loose}`);
const currentLoose = async (id: number) =>
  (
    await db().pool.query<{ loose: string | null }>(
      "SELECT price_loose::text AS loose FROM games WHERE id = $1",
      [id],
    )
  ).rows[0]?.loose;

beforeAll(async () => {
  await load([CONSOLE]);
  t = await startTestApp(db().pool, { clock });
  key = (await createTenant(db().pool, { plan: "enterprise" })).key;
});
afterAll(() => t?.close());

describe("price observations from catalog imports", () => {
  it("keeps a row per change, not per day: prices seen again extend their run", async () => {
    await load([
      game(1, { loose: "10.00" }, "2026-10-01T09:00:00Z"),
      game(1, { loose: "10.00" }, "2026-10-02T09:00:00Z"),
      game(1, { loose: "10.00" }, "2026-10-03T09:00:00Z"),
      game(1, { loose: "12.50" }, "2026-10-05T09:00:00Z"),
    ]);
    expect(await runs(1)).toEqual(["10-01 09:00..10-03 09:00 10.00", "10-05 09:00..10-05 09:00 12.50"]);
    expect(await currentLoose(1)).toBe("12.50");
  });

  it("lets an older file fill in the past without overwriting newer prices", async () => {
    await load([game(2, { loose: "20.00" }, "2026-11-01T00:00:00Z")]);
    await load([game(2, { loose: "15.00" }, "2026-09-01T00:00:00Z"), game(2, null, "2026-09-15T00:00:00Z")]);
    expect(await runs(2)).toEqual([
      "09-01 00:00..09-01 00:00 15.00",
      "09-15 00:00..09-15 00:00 null",
      "11-01 00:00..11-01 00:00 20.00",
    ]);
    expect(await currentLoose(2)).toBe("20.00");
  });

  it("changes nothing when the same file is loaded again", async () => {
    const file = [
      game(3, { loose: "5.00", complete: "9.00" }, "2026-10-01T00:00:00Z"),
      game(3, { loose: "6.00", complete: "9.00" }, "2026-10-08T00:00:00Z"),
    ];
    await load(file);
    const dump = async () =>
      (await db().pool.query("SELECT * FROM price_observations WHERE game_id = 3 ORDER BY observed_at")).rows;
    const before = await dump();
    await load(file);
    expect(await dump()).toEqual(before);
    expect(before).toHaveLength(2);
  });

  it("dates a line without observed_at at the import's start, so the newest file's prices win", async () => {
    await load([game(4, { loose: "30.00" }, "2026-11-20T00:00:00Z")]);
    await load([game(4, { loose: "31.00" })]);
    expect(await runs(4)).toEqual(["11-20 00:00..11-20 00:00 30.00", "11-21 12:00..11-21 12:00 31.00"]);
    expect(await currentLoose(4)).toBe("31.00");
  });

  it("refuses prices observed after today, and loads nothing of a file refused whole", async () => {
    const report = await load([game(5, { loose: "1.00" }, "2026-11-22T00:00:00Z")]);
    expect(report.rejected).toBe(1);
    expect(report.errors[0]?.reason).toMatch(/^observed_at: 2026-11-22 is after today/);
    expect(await runs(5)).toEqual([]);
  });
});

describe("prices in /intelligence/{id}/history", () => {
  beforeAll(async () => {
    // Game 6's prices move on the 2nd and the 19th; one redirect gives the days a snapshot.
    await load([
      game(6, { loose: "40.00", complete: "80.00" }, "2026-11-02T10:00:00Z"),
      game(6, { loose: "44.00", complete: "80.00" }, "2026-11-19T23:59:59Z"),
      '{"type":"redirect","game_id":6,"user_id":"u","occurred_at":"2026-11-20T10:00:00Z"}',
    ]);
    await rollupDates(
      db(),
      { end: "2026-11-20", days: 1, force: true, today: "2026-11-21" },
      DEFAULT_SCORING,
    );
  });

  const history = async (query: string) => {
    const response = await t.app.inject({
      url: `/api/v1/intelligence/6/history?${query}`,
      headers: bearer(key),
    });
    expect(response.statusCode, response.body).toBe(200);
    return contract.intelligence.history.responses[200].parse(response.json()).data;
  };

  it("gives the price in force on every day of the range, null before the first observation", async () => {
    const data = await history("from=2026-10-30&to=2026-11-20");
    expect(data.prices).toHaveLength(22);
    const on = (date: string) => data.prices.find((p) => p.date === date);
    expect(on("2026-11-01")).toEqual({ date: "2026-11-01", loose: null, complete: null, new: null });
    expect(on("2026-11-02")).toEqual({ date: "2026-11-02", loose: "40.00", complete: "80.00", new: null });
    expect(on("2026-11-18")?.loose).toBe("40.00");
    // Seen at 23:59:59 UTC: in force at the end of the 19th.
    expect(on("2026-11-19")?.loose).toBe("44.00");
    // Prices are every day's; points only the computed dates'.
    expect(data.points.map((p) => p.date)).toEqual(["2026-11-20"]);
  });

  it("carries the newest prices to the last day of the calendar", async () => {
    const data = await history("to=9999-12-31");
    expect(data.prices).toHaveLength(30);
    expect(data.prices.at(-1)).toEqual({ date: "9999-12-31", loose: "44.00", complete: "80.00", new: null });
    expect(data.points).toEqual([]);
  });

  it("gives the change over 7 and 30 days ending on `to`, whatever the range", async () => {
    const data = await history("from=2026-11-20&to=2026-11-20");
    expect(data.prices).toEqual([{ date: "2026-11-20", loose: "44.00", complete: "80.00", new: null }]);
    expect(data.price_changes).toEqual([
      {
        days: 7,
        since: "2026-11-13",
        loose: { start: "40.00", end: "44.00", change: "4.00", change_ratio: 0.1 },
        complete: { start: "80.00", end: "80.00", change: "0.00", change_ratio: 0 },
        new: null,
      },
      // Thirty days back, on 2026-10-21, nothing was observed yet.
      { days: 30, since: "2026-10-21", loose: null, complete: null, new: null },
    ]);
  });
});
