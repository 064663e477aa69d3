import { describe, expect, it } from "vitest";
import { API_KEY, BASE_URL, useGmiMocks } from "./helpers.js";

// The mock's limits and idempotency record, as the server keeps them (the parity suite,
// packages/parity, compares them with the server answer by answer; these are the mock's own checks).
let now = Date.parse("2026-11-21T12:00:30.500Z");
const gmi = useGmiMocks({ plan: "free", now: () => now });

const get = (path = "/api/v1/games/titles") =>
  fetch(`${BASE_URL}${path}`, { headers: { authorization: `Bearer ${API_KEY}` } });
const batch = (key: string, ids: number[]) =>
  fetch(`${BASE_URL}/api/v1/intelligence/batch`, {
    method: "POST",
    headers: {
      authorization: `Bearer ${API_KEY}`,
      "content-type": "application/json",
      "idempotency-key": key,
    },
    body: JSON.stringify({ requests: ids.map((game_id) => ({ game_id })) }),
  });
const limits = (response: Response) => ({
  remaining: response.headers.get("x-ratelimit-remaining"),
  reset: response.headers.get("x-ratelimit-reset"),
  retryAfter: response.headers.get("retry-after"),
});

describe("the mock's limits", () => {
  it("keeps Free's fixed UTC minute: 30 units, then 429 until the minute ends, charging nothing", async () => {
    now = Date.parse("2026-11-21T12:00:30.500Z");
    for (let i = 0; i < 30; i++) expect((await get()).status).toBe(200);
    const refused = await get();
    expect(refused.status).toBe(429);
    expect(limits(refused)).toEqual({ remaining: "0", reset: "30", retryAfter: "30" });
    expect((await refused.json()).error).toEqual({
      code: "rate_limit_exceeded",
      message: "Rate limit of 30 requests per minute exceeded",
      details: { window: "minute", limit: 30 },
    });
    now = Date.parse("2026-11-21T12:01:00.000Z");
    expect(limits(await get())).toEqual({ remaining: "29", reset: "60", retryAfter: null });
  });

  it("refuses at the end of the monthly quota with 402, the windows given back", async () => {
    now = Date.parse("2026-11-21T12:00:30.500Z");
    gmi.state.monthUsed = 9_999;
    expect((await get()).status).toBe(200);
    const refused = await get();
    expect(refused.status).toBe(402);
    expect(limits(refused)).toEqual({
      remaining: "29",
      reset: "30",
      retryAfter: String(9 * 86_400 + 43_170),
    });
  });

  it("401 carries no X-RateLimit-*, 403 charges nothing", async () => {
    const unknown = await fetch(`${BASE_URL}/api/v1/games/titles`);
    expect(unknown.status).toBe(401);
    expect(unknown.headers.get("x-ratelimit-limit")).toBeNull();
    gmi.scenarios.missingScope("games.read");
    const refused = await get();
    expect(refused.status).toBe(403);
    expect(limits(refused).remaining).toBe("30");
  });

  it("rateLimited({ for: 'window' }) lasts a time, Retry-After counting down, the window spent", async () => {
    now = Date.parse("2026-11-21T12:00:00.000Z");
    gmi.scenarios.rateLimited({ retryAfter: 10, for: "window" });
    expect(limits(await get())).toEqual({ remaining: "0", reset: "10", retryAfter: "10" });
    now += 4_000;
    expect(limits(await get())).toEqual({ remaining: "0", reset: "6", retryAfter: "6" });
    now += 6_000;
    expect((await get()).status).toBe(200);
  });
});

describe("the mock's idempotency record", () => {
  it("409 while the first is in flight; then a replay byte for byte, charged one unit", async () => {
    now = Date.parse("2026-11-21T12:00:30.500Z");
    const hold = gmi.state.holdNextBatch();
    const first = batch("k1", [101, 102]);
    await hold.reached;
    const conflict = await batch("k1", [101]);
    expect(conflict.status).toBe(409);
    expect(conflict.headers.get("retry-after")).toBe("2");
    hold.release();
    const original = await first;
    const body = await original.text();
    expect(limits(original).remaining).toBe("27");
    const replay = await batch("k1", [101, 102]);
    expect(replay.headers.get("idempotency-replayed")).toBe("true");
    expect(await replay.text()).toBe(body);
    expect(limits(replay).remaining).toBe("26");
    expect((await batch("k1", [103])).status).toBe(422);
    now += 86_400_000;
    const fresh = await batch("k1", [103]);
    expect(fresh.status).toBe(200);
    expect(fresh.headers.get("idempotency-replayed")).toBeNull();
  });
});
