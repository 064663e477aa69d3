import type pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { manualClock } from "../src/clock.js";
import type { Sql } from "../src/data/sql.js";
import { seedDemo } from "../src/demo/seed.js";
import { DEFAULT_SCORING } from "../src/domain/analytics/weights.js";
import { rollupDate } from "../src/rollup/rollup-dates.js";
import type { TestApp } from "./helpers/app.js";
import { bearer, startTestApp } from "./helpers/app.js";
import { useTestDatabase } from "./helpers/setup.js";
import { createTenant } from "./helpers/tenant.js";

/**
 * Issue 28: a read the response cache does not hold costs one PostgreSQL statement, whatever the
 * route (data/analytics-reads.ts, data/history-reads.ts, data/catalog.ts). Counted on the real
 * database, the statements of keys, metering and the data fingerprint left out.
 */
const END = "2026-11-20";
const db = useTestDatabase({ catalog: false });
const clock = manualClock(Date.parse(`${END}T12:00:00Z`));
const sent: string[] = [];
let t: TestApp;
let key: string;
let game: number;

/** The statements of the read itself: not the key lookup, the usage flush or the data fingerprint. */
const isRead = (text: string) => !/api_keys|usage_months|xmin::text/.test(text);

beforeAll(async () => {
  await seedDemo(db(), DEFAULT_SCORING, { scale: "small", seed: 5, endDate: END, rollupDays: 1 });
  await rollupDate(db(), "2026-11-19", DEFAULT_SCORING);
  const pool = db().pool;
  const query = (config: string | pg.QueryConfig, values?: unknown[]) => {
    const text = typeof config === "string" ? config : config.text;
    if (isRead(text)) sent.push(text);
    return pool.query(config as pg.QueryConfig, values as unknown[]);
  };
  t = await startTestApp({ query } as unknown as Sql, { clock });
  key = (await createTenant(pool, { plan: "enterprise" })).key;
  const top = await t.app.inject({ url: "/api/v1/intelligence?limit=1", headers: bearer(key) });
  game = top.json().data[0].game.id;
}, 120_000);
afterAll(() => t?.close());

/** The statements a request sent, asked once (a URL no test asked before: never a kept answer). */
const statementsOf = async (url: string) => {
  sent.length = 0;
  const response = await t.app.inject({ url, headers: bearer(key) });
  expect(response.statusCode, `${url}: ${response.body}`).toBe(200);
  return { count: sent.length, body: response.json() };
};

describe("a cold read", () => {
  it("is one statement on every GET route of the wide mix", async () => {
    const urls = [
      "/api/v1/intelligence?page=2",
      "/api/v1/intelligence?sort=demand&date=2026-11-19&console_id=1",
      "/api/v1/intelligence?sort=value&page=400",
      `/api/v1/intelligence/${game}`,
      `/api/v1/intelligence/${game}?period=day&date=2026-11-19`,
      `/api/v1/intelligence/${game}/conditions`,
      `/api/v1/demand-intent/games/${game}/conditions?date=2026-11-19`,
      `/api/v1/intelligence/${game}/history`,
      `/api/v1/intelligence/${game}/history?from=2026-11-01`,
      `/api/v1/intelligence/${game}/history?period=30d&to=2026-11-19`,
      "/api/v1/demand-intent/searches?sort=volume",
      "/api/v1/demand-intent/searches?sort=momentum&page=2&limit=10",
      "/api/v1/demand-intent/searches/trending?limit=5",
      "/api/v1/demand-intent/searches/unmet?date=2026-11-19",
      "/api/v1/demand-intent/searches/conditions",
      "/api/v1/games/titles?page=2",
      "/api/v1/games/slugs?paginate=cursor",
      "/api/v1/games/console/1",
      `/api/v1/games/game/${game}`,
      "/api/v1/consoles",
    ];
    const counts = [];
    for (const url of urls) counts.push([url, (await statementsOf(url)).count]);
    expect(counts).toEqual(urls.map((url) => [url, 1]));
  });

  it("stays one statement along a cursor walk, which keeps its snapshot's date", async () => {
    let next: string | null = "/api/v1/demand-intent/searches?sort=momentum&limit=3&paginate=cursor";
    let pages = 0;
    for (; pages < 3 && next; pages++) {
      const { count, body } = await statementsOf(next.replace(/^https?:\/\/[^/]+/, ""));
      expect(count).toBe(1);
      expect(body.meta.period_date).toBe(END);
      next = body.links.next;
    }
    expect(pages).toBe(3);
  });
});
