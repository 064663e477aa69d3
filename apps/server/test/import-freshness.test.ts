import { writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { manualClock } from "../src/clock.js";
import { DEFAULT_SCORING } from "../src/domain/analytics/weights.js";
import { importFile } from "../src/jobs/import.js";
import { rollupDates } from "../src/rollup/rollup-dates.js";
import { bearer, startTestApp, type TestApp } from "./helpers/app.js";
import { useTestDatabase } from "./helpers/setup.js";
import { createTenant } from "./helpers/tenant.js";

/**
 * The freshness path on PostgreSQL: an import, then the next rollup (not forced), then the API.
 * A second, overlapping export adds events to a date already rolled up: they show in every figure,
 * and the events it repeats count once.
 */
const D = "2026-11-20";
const db = useTestDatabase({ catalog: false });
const clock = manualClock(new Date("2026-11-21T06:00:00Z"));
const appClock = manualClock(new Date("2026-11-21T06:00:00Z"));
let t: TestApp;
let key: string;

const redirect = (user: string, hour: number, game = 101) =>
  `{"type":"redirect","game_id":${game},"user_id":"${user}","occurred_at":"${D}T${String(hour).padStart(2, "0")}:00:00Z","condition":"cib"}`;
const watch = (user: string) =>
  `{"type":"watch","game_id":101,"user_id":"${user}","created_at":"${D}T08:00:00Z","removed_at":null}`;
const search = (user: string, hour: number) =>
  `{"type":"search","query":"Chrono Trigger","user_id":"${user}","occurred_at":"${D}T${String(hour).padStart(2, "0")}:30:00Z","source":"site","device":"mobile","result_count":3,"game_id":101}`;

const FIRST = [
  '{"type":"console","id":1,"name":"Super Nintendo","slug":"snes"}',
  '{"type":"game","id":101,"console_id":1,"display_game_name":"Chrono Trigger","marketplace_game_name":"chrono-trigger","prices":{"complete":"289.00"}}',
  '{"type":"game","id":102,"console_id":1,"display_game_name":"EarthBound","marketplace_game_name":"earthbound","prices":{"complete":"400.00"}}',
  redirect("u1", 9),
  redirect("u2", 10),
  redirect("u1", 11),
  redirect("u9", 12, 102),
  watch("w1"),
  search("s1", 9),
  search("s2", 10),
];
/** An export overlapping the first: three of its events again, and new ones on the same day. */
const SECOND = [
  redirect("u2", 10),
  redirect("u1", 11),
  watch("w1"),
  redirect("u3", 13),
  redirect("u3", 14),
  watch("w2"),
  search("s1", 9),
  search("s3", 15),
];

let fileCount = 0;
const load = async (lines: string[]) => {
  fileCount += 1;
  const file = path.join(tmpdir(), `gmi-freshness-${process.pid}-${fileCount}.ndjson`);
  await writeFile(file, `${lines.join("\n")}\n`);
  return importFile(db(), file, () => {}, undefined, { clock });
};
const ok = async (url: string) => {
  const response = await t.app.inject({ url, headers: bearer(key) });
  expect(response.statusCode, response.body).toBe(200);
  return response.json();
};
/** The API's figures for game 101 and its query on D, read after the app's caches of the latest snapshot expired. */
const figures = async () => {
  appClock.advance(60_000);
  const profile = (await ok(`/api/v1/intelligence/101?period=day&date=${D}`)).data;
  const searches = (await ok(`/api/v1/demand-intent/searches?period=day&date=${D}`)).data;
  const chrono = searches.find((r: { query: string }) => r.query === "chrono trigger");
  return {
    redirects: profile.demand.redirects,
    users: profile.demand.distinct_users,
    watches: profile.demand.watch_count,
    searches: chrono?.search.search_count,
    searchers: chrono?.search.distinct_users,
  };
};

beforeAll(async () => {
  t = await startTestApp(db().pool, { clock: appClock });
  key = (await createTenant(db().pool, { plan: "enterprise" })).key;
}, 60_000);
afterAll(() => t?.close());

describe("import -> rollup -> API", () => {
  it("shows an import's events in every figure after the next rollup, and an overlapping export's new ones only", async () => {
    expect(await load(FIRST)).toMatchObject({ new: 7, duplicates: 0, rejected: 0 });
    expect(
      (await rollupDates(db(), { end: D, days: 1, force: false, today: "2999-12-31" }, DEFAULT_SCORING))
        .computed,
    ).toEqual([D]);
    expect(await figures()).toEqual({ redirects: 3, users: 2, watches: 1, searches: 2, searchers: 2 });

    expect(await load(SECOND)).toMatchObject({ new: 4, duplicates: 4, rejected: 0 });
    // The date is already rolled up; the import changed its cells, so the next rollup computes it again.
    expect(
      (await rollupDates(db(), { end: D, days: 1, force: false, today: "2999-12-31" }, DEFAULT_SCORING))
        .computed,
    ).toEqual([D]);
    expect(await figures()).toEqual({ redirects: 5, users: 3, watches: 2, searches: 3, searchers: 3 });

    // The same export once more: nothing new, nothing to roll up, the same figures.
    expect(await load(SECOND)).toMatchObject({ new: 0, duplicates: 8 });
    expect(
      (await rollupDates(db(), { end: D, days: 1, force: false, today: "2999-12-31" }, DEFAULT_SCORING))
        .computed,
    ).toEqual([]);
    expect(await figures()).toEqual({ redirects: 5, users: 3, watches: 2, searches: 3, searchers: 3 });
  });
});
