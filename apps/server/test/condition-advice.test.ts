import { contract } from "@gmi/contract";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { manualClock } from "../src/clock.js";
import { DEFAULT_SCORING } from "../src/domain/analytics/weights.js";
import { rollupDate } from "../src/rollup/rollup-dates.js";
import type { TestApp } from "./helpers/app.js";
import { bearer, startTestApp } from "./helpers/app.js";
import { useTestDatabase } from "./helpers/setup.js";
import { createTenant } from "./helpers/tenant.js";

/**
 * Per-game listing advice needs a minimum sample (issue 21, item 5). On the fixture catalog, 7d of D:
 * 103 has one watch tagged cib; 105 nothing; 101 four cib redirects and one loose watch.
 */
const D = "2026-11-20";
const db = useTestDatabase();
let t: TestApp;
let key: string;

const watch = (gameId: number, user: string, condition: string) =>
  db().pool.query(
    "INSERT INTO watch_events (game_id, user_id, created_at, condition) VALUES ($1, $2, $3, $4)",
    [gameId, user, `${D}T08:00:00Z`, condition],
  );
const redirect = (gameId: number, user: string, condition: string) =>
  db().pool.query(
    `INSERT INTO redirect_events (game_id, user_id, occurred_at, day, condition, device)
     VALUES ($1, $2, $3, $4, $5, 'desktop')`,
    [gameId, user, `${D}T09:00:00Z`, D, condition],
  );

beforeAll(async () => {
  await watch(103, "w1", "cib");
  for (const user of ["a", "b", "c", "d"]) await redirect(101, user, "cib");
  await watch(101, "w2", "loose");
  await rollupDate(db(), D, DEFAULT_SCORING);
  t = await startTestApp(db().pool, { clock: manualClock(new Date(`${D}T12:00:00Z`)) });
  key = (await createTenant(db().pool)).key;
}, 60_000);
afterAll(() => t?.close());

const advice = async (gameId: number) => {
  const response = await t.app.inject({
    url: `/api/v1/intelligence/${gameId}/conditions`,
    headers: bearer(key),
  });
  expect(response.statusCode, response.body).toBe(200);
  return contract.intelligence.conditions.responses[200].parse(response.json()).data;
};

describe("GET /intelligence/{id}/conditions", () => {
  it("recommends nothing from a single watch, and shows the sample", async () => {
    const data = await advice(103);
    expect(data.conditions.find((c) => c.condition === "cib")?.demand.watch_count).toBe(1);
    expect(data).toMatchObject({ recommended: null, sample_size: 1, min_sample_size: 5 });
  });

  it("recommends nothing without demand", async () => {
    expect(await advice(105)).toMatchObject({ recommended: null, sample_size: 0, min_sample_size: 5 });
  });

  it("recommends from the minimum sample on", async () => {
    expect(await advice(101)).toMatchObject({ recommended: "cib", sample_size: 5, min_sample_size: 5 });
  });
});
