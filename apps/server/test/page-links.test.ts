import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { manualClock } from "../src/clock.js";
import { DEFAULT_SCORING } from "../src/domain/analytics/weights.js";
import { addDays } from "../src/domain/analytics/windows.js";
import { rollupDate } from "../src/rollup/rollup-dates.js";
import type { TestApp } from "./helpers/app.js";
import { bearer, startTestApp } from "./helpers/app.js";
import { useTestDatabase } from "./helpers/setup.js";
import { createTenant } from "./helpers/tenant.js";

/**
 * Page links pin the snapshot (issue 26, item 3). Demand on the fixture catalog on BEFORE and on D,
 * which ranks differently (102 and q6 only on D); BEFORE is rolled up first, D in the middle of the
 * walks: a walk that follows `links.next` stays on BEFORE, with no row repeated or lost.
 */
const D = "2026-11-20";
const BEFORE = addDays(D, -1);
const db = useTestDatabase();
const clock = manualClock(new Date(`${D}T12:00:00Z`));
let t: TestApp;
let key: string;

const redirects = async (gameId: number, day: string, n: number) => {
  for (let i = 0; i < n; i++) {
    await db().pool.query(
      "INSERT INTO redirect_events (game_id, user_id, occurred_at, day, device) VALUES ($1, $2, $3, $4, 'mobile')",
      [gameId, `u${gameId}-${i}`, `${day}T12:00:00Z`, day],
    );
  }
};
const searches = async (query: string, day: string, n: number) => {
  for (let i = 0; i < n; i++) {
    await db().pool.query(
      `INSERT INTO search_events (raw_query, query, user_id, occurred_at, day, source, device, result_count)
       VALUES ($1, $1, $2, $3, $4, 'site', 'desktop', 3)`,
      [query, `s${i}`, `${day}T10:00:00Z`, day],
    );
  }
};

beforeAll(async () => {
  for (const [gameId, n] of [
    [101, 3],
    [103, 2],
    [104, 1],
    [105, 1],
  ] as const)
    await redirects(gameId, BEFORE, n);
  await redirects(102, D, 5);
  await redirects(104, D, 3);
  for (const [query, n] of [
    ["q1", 5],
    ["q2", 4],
    ["q3", 3],
    ["q4", 2],
    ["q5", 1],
  ] as const)
    await searches(query, BEFORE, n);
  await searches("q6", D, 6);
  await searches("q1", D, 1);
  await rollupDate(db(), BEFORE, DEFAULT_SCORING);
  t = await startTestApp(db().pool, { clock });
  key = (await createTenant(db().pool)).key;
}, 60_000);
afterAll(() => t?.close());

type Page = {
  data: Array<{ rank: number; game?: { id: number }; query?: string }>;
  meta: { period_date: string; pagination: { total: number } };
  links: { next: string | null; prev: string | null };
};

const get = async (url: string, withKey = key): Promise<Page> => {
  const response = await t.app.inject({
    url: url.replace(/^https?:\/\/[^/]+/, ""),
    headers: bearer(withKey),
  });
  expect(response.statusCode, `${url}: ${response.body}`).toBe(200);
  return response.json();
};
const idOf = (row: Page["data"][number]) => String(row.game?.id ?? row.query);

const LISTS = [
  "/api/v1/intelligence?limit=2",
  "/api/v1/intelligence?sort=value&limit=1&paginate=cursor",
  "/api/v1/demand-intent/searches?sort=momentum&limit=2",
  "/api/v1/demand-intent/searches/trending?limit=2&paginate=cursor",
];

describe("page links", () => {
  it("keep a walk in its snapshot when a newer date is rolled up half way", async () => {
    const firsts = await Promise.all(LISTS.map((url) => get(url)));
    for (const first of firsts) expect(first.meta.period_date).toBe(BEFORE);

    await rollupDate(db(), D, DEFAULT_SCORING);
    // Past the second for which the latest snapshot is kept (reads/snapshot.ts).
    clock.advance(2_000);
    for (const [i, url] of LISTS.entries()) {
      // Without a date the list now reads D, and D's list is not BEFORE's.
      const latest = await get(`${url.split("?")[0]}?limit=100`);
      expect(latest.meta.period_date, url).toBe(D);
      const whole = await get(`${url}&date=${BEFORE}`.replace(/limit=\d+/, "limit=100"));
      expect(latest.data.map(idOf), url).not.toEqual(whole.data.map(idOf));

      const first = firsts[i] as Page;
      const walked = first.data.map(idOf);
      for (let next = first.links.next; next !== null; ) {
        expect(next, url).toContain(`date=${BEFORE}`);
        const page = await get(next);
        expect(page.meta.period_date, next).toBe(BEFORE);
        walked.push(...page.data.map(idOf));
        next = page.links.next;
      }
      expect(walked, url).toEqual(whole.data.map(idOf));
    }
  });

  it("repeat every resolved parameter: defaults filled in, the limit as the page size served", async () => {
    const first = await get("/api/v1/intelligence?console_id=1&limit=1");
    expect(first.links.next).toBe(
      `http://localhost:80/api/v1/intelligence?period=7d&console_id=1&limit=1&page=2&paginate=page&sort=liquidity&date=${first.meta.period_date}`,
    );
    const free = (await createTenant(db().pool, { plan: "free" })).key;
    const capped = await get("/api/v1/demand-intent/searches/unmet?period=30d&limit=500&page=2", free);
    expect(capped.links.prev).toBe(
      `http://localhost:80/api/v1/demand-intent/searches/unmet?period=30d&limit=25&page=1&paginate=page&date=${capped.meta.period_date}`,
    );
  });

  it("refuse a cursor beside another date than the one it walks", async () => {
    const first = await get(`/api/v1/intelligence?limit=1&paginate=cursor&date=${BEFORE}`);
    const next = new URL(first.links.next ?? "");
    next.searchParams.set("date", D);
    const response = await t.app.inject({ url: `${next.pathname}${next.search}`, headers: bearer(key) });
    expect(response.statusCode).toBe(422);
    expect(response.json().error.details.issues[0]).toMatchObject({ location: "query", field: "cursor" });
    // Without a date, the cursor's own date is read.
    next.searchParams.delete("date");
    const resumed = await get(`${next.pathname}${next.search}`);
    expect(resumed.meta.period_date).toBe(BEFORE);
  });
});
