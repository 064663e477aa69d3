import type { ErrorBody } from "@gmi/contract";
import { contract, ErrorEnvelopeSchema } from "@gmi/contract";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { IDLE_FLUSHES } from "../src/domain/limits/lease.js";
import { billingMonth } from "../src/domain/limits/windows.js";
import type { TestApp } from "./helpers/app.js";
import { bearer, startTestApp } from "./helpers/app.js";
import { BATCH_DATE, ignoreTerminationOnDrop, json, seedAnalytics } from "./helpers/batch.js";
import { useTestDatabase } from "./helpers/setup.js";
import { createTenant, createTestPlan } from "./helpers/tenant.js";

const db = useTestDatabase();
let t: TestApp;
beforeAll(async () => {
  ignoreTerminationOnDrop(db().pool);
  await seedAnalytics(db());
  t = await startTestApp(db().pool);
});
afterAll(() => t?.close());

const INTELLIGENCE = "/api/v1/intelligence/batch";
const SIGNALS = "/api/v1/signals/batch";

const post = (key: string, body: unknown, url = INTELLIGENCE) =>
  t.app.inject({ method: "POST", url, headers: { ...bearer(key), ...json }, payload: JSON.stringify(body) });

const used = async (organizationId: number) => {
  // Leases of hard-capped plans count as used until given back: one busy flush, then IDLE_FLUSHES idle ones.
  for (let i = 0; i <= IDLE_FLUSHES; i++) await t.usage.flush();
  const { rows } = await db().pool.query<{ used: number }>(
    "SELECT used FROM usage_months WHERE organization_id = $1 AND month = $2",
    [organizationId, billingMonth(Date.now())],
  );
  return Number(rows[0]?.used ?? 0);
};

const errorOf = (response: { json(): unknown }) => ErrorEnvelopeSchema.parse(response.json()).error;

describe("intelligence batch", () => {
  it("200 when every item is 2xx: rows scored like the profile, unknown and disabled ids found:false", async () => {
    const { key } = await createTenant(db().pool);
    const response = await post(key, {
      requests: [{ game_id: 101 }, { id: 103 }, { game_id: 999_999 }, { id: 106 }],
    });
    expect(response.statusCode).toBe(200);
    const body = contract.intelligence.batch.responses[200].parse(response.json());
    expect(body.meta).toEqual({
      period: "7d",
      period_date: BATCH_DATE,
      batch: { total: 4, succeeded: 4, failed: 0 },
    });
    expect(body.data[2]).toEqual({ status: 200, data: { game_id: 999_999, found: false } });
    expect(body.data[3]).toEqual({ status: 200, data: { game_id: 106, found: false } });

    // The same population as the profile and the leaderboard: the rows agree field for field.
    const leaderboard = (
      await t.app.inject({ url: "/api/v1/intelligence?limit=100", headers: bearer(key) })
    ).json();
    for (const [index, id] of [
      [0, 101],
      [1, 103],
    ] as const) {
      const profile = await t.app.inject({ url: `/api/v1/intelligence/${id}`, headers: bearer(key) });
      const { rank, ...row } = profile.json().data;
      expect(body.data[index]).toEqual({ status: 200, data: { ...row, found: true } });
      expect(leaderboard.data.find((r: { game: { id: number } }) => r.game.id === id)).toEqual({
        rank,
        ...row,
      });
    }
  });

  it("profiles kept between batches show a catalog change within about a second", async () => {
    const { key } = await createTenant(db().pool);
    const name = async () =>
      (await post(key, { requests: [{ game_id: 105 }] })).json().data[0].data.game.name;
    const before = await name();
    await db().pool.query(
      "UPDATE games SET display_game_name = display_game_name || ' (new)' WHERE id = 105",
    );
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    expect(await name()).toBe(`${before} (new)`);
    await db().pool.query("UPDATE games SET display_game_name = $1 WHERE id = 105", [before]);
  });

  it("a game with no demand in the period still resolves, with zero demand", async () => {
    const { key } = await createTenant(db().pool);
    const body = (await post(key, { requests: [{ game_id: 104 }] })).json();
    expect(body.data[0].data).toMatchObject({ found: true, game: { id: 104 }, demand: { redirects: 0 } });
  });

  it("207 when outcomes are mixed: an invalid element is its own 422, the others proceed", async () => {
    const { key } = await createTenant(db().pool);
    const response = await post(key, { requests: [{ game_id: 101 }, { game_id: "101" }, {}, 5] });
    expect(response.statusCode).toBe(207);
    const body = contract.intelligence.batch.responses[207].parse(response.json());
    expect(body.meta.batch).toEqual({ total: 4, succeeded: 1, failed: 3 });
    expect(body.data[0]).toMatchObject({ status: 200, data: { found: true } });
    const errors = body.data.slice(1).map((item) => ("error" in item ? item : null));
    expect(errors).toEqual([
      {
        status: 422,
        error: {
          code: "validation_failed",
          message: "Invalid body parameter requests.1.game_id: must be an integer",
          details: {
            issues: [{ location: "body", field: "requests.1.game_id", message: "must be an integer" }],
          },
        },
      },
      expect.objectContaining({
        status: 422,
        error: expect.objectContaining({
          message: expect.stringMatching(/requests\.2: must have game_id or id/),
        }),
      }),
      expect.objectContaining({
        status: 422,
        error: expect.objectContaining({ message: expect.stringMatching(/requests\.3: must be an object/) }),
      }),
    ]);
  });

  it("422 validation_failed for a missing or empty requests", async () => {
    const { key } = await createTenant(db().pool);
    for (const body of [{}, { requests: [] }, { requests: "all" }]) {
      const response = await post(key, body);
      expect(response.statusCode).toBe(422);
      const error: ErrorBody = errorOf(response);
      expect(error.code).toBe("validation_failed");
      expect(error.details).toMatchObject({ issues: [{ location: "body", field: "requests" }] });
    }
  });

  it("422 batch_too_large above the plan's max_batch_size (Free: 10)", async () => {
    const { key } = await createTenant(db().pool, { plan: "free" });
    const requests = Array.from({ length: 11 }, (_, i) => ({ game_id: 200 + i }));
    const response = await post(key, { requests });
    expect(response.statusCode).toBe(422);
    expect(errorOf(response)).toMatchObject({
      code: "batch_too_large",
      details: { max_items: 10, received: 11 },
    });
    expect((await post(key, { requests: requests.slice(0, 10) })).statusCode).toBe(200);
  });

  it("period and date are resolved once for the batch; a date without data is a whole-batch 422", async () => {
    const { key } = await createTenant(db().pool);
    const ok = await post(key, { requests: [{ id: 101 }] }, `${INTELLIGENCE}?period=30d&date=${BATCH_DATE}`);
    expect(ok.json().meta).toMatchObject({ period: "30d", period_date: BATCH_DATE });
    const missing = await post(key, { requests: [{ id: 101 }] }, `${INTELLIGENCE}?date=2020-01-01`);
    expect(missing.statusCode).toBe(422);
    expect(errorOf(missing).details).toMatchObject({ issues: [{ location: "query", field: "date" }] });
  });
});

describe("signals batch", () => {
  it("raw signals per found game, found:false for unknown ids, 422 items for elements without id", async () => {
    const { key } = await createTenant(db().pool);
    const response = await post(key, { requests: [{ id: 101 }, { id: 424_242 }, { game_id: 101 }] }, SIGNALS);
    expect(response.statusCode).toBe(207);
    const body = contract.signals.batch.responses[207].parse(response.json());
    expect(body.data[0]).toEqual({
      status: 200,
      data: {
        game_id: 101,
        found: true,
        game: expect.objectContaining({ id: 101, name: "Chrono Trigger" }),
        signals: { redirects: 2, distinct_users: 2, watch_count: 0, search_count: 1 },
        // 2 redirects in the recent week, 3 in the 30 days (2026-05-30 too): 30·2 / (7·3).
        momentum: { value: 2.8571, label: "rising" },
      },
    });
    expect(body.data[1]).toEqual({ status: 200, data: { game_id: 424_242, found: false } });
    expect(body.data[2]).toMatchObject({
      status: 422,
      error: { details: { issues: [{ field: "requests.2.id" }] } },
    });
    expect(body.meta.batch).toEqual({ total: 3, succeeded: 2, failed: 1 });
  });
});

describe("metering", () => {
  it("N elements cost N units of the minute window and the monthly quota, whatever each outcome", async () => {
    const { key, organizationId } = await createTenant(db().pool, { plan: "starter" });
    const response = await post(key, {
      requests: [{ id: 101 }, { id: 999_999 }, { id: "x" }, { id: 103 }, { id: 101 }],
    });
    expect(response.statusCode).toBe(207);
    expect(response.headers["x-ratelimit-remaining"]).toBe(String(120 - 5));
    expect(await used(organizationId)).toBe(5);
    await post(key, { requests: [{ id: 101 }, { id: 102 }] }, SIGNALS);
    expect(await used(organizationId)).toBe(7);
  });

  it("a batch larger than the minute window's remainder is refused whole (429) and costs nothing", async () => {
    const plan = await createTestPlan(db().pool, { perMinute: 6, perDay: 100, quota: 100 });
    const { key, organizationId } = await createTenant(db().pool, { plan });
    const five = { requests: Array.from({ length: 5 }, () => ({ id: 101 })) };
    expect((await post(key, five)).statusCode).toBe(200);
    const refused = await post(key, five);
    expect(refused.statusCode).toBe(429);
    expect(errorOf(refused)).toMatchObject({
      code: "rate_limit_exceeded",
      details: { window: "minute", limit: 6 },
    });
    expect(refused.headers["retry-after"]).toBeDefined();
    expect(await used(organizationId)).toBe(5);
    // The one unit left is still there.
    const one = await post(key, { requests: [{ id: 101 }] });
    expect(one.statusCode).toBe(200);
    expect(one.headers["x-ratelimit-remaining"]).toBe("0");
  });

  it("a batch larger than the monthly remainder is refused whole (402) and costs nothing", async () => {
    const plan = await createTestPlan(db().pool, { perMinute: 100, perDay: 100, quota: 7 });
    const { key, organizationId } = await createTenant(db().pool, { plan });
    const five = { requests: Array.from({ length: 5 }, () => ({ id: 101 })) };
    expect((await post(key, five)).statusCode).toBe(200);
    const refused = await post(key, five);
    expect(refused.statusCode).toBe(402);
    expect(errorOf(refused)).toMatchObject({ code: "quota_exceeded", details: { quota: 7, used: 5 } });
    expect(await used(organizationId)).toBe(5);
    expect(refused.headers["x-ratelimit-remaining"]).toBe(String(100 - 5));
    expect((await post(key, { requests: [{ id: 101 }, { id: 103 }] })).statusCode).toBe(200);
    expect(await used(organizationId)).toBe(7);
  });
});
