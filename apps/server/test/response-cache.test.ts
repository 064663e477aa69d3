import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { manualClock } from "../src/clock.js";
import type { TestApp } from "./helpers/app.js";
import { bearer, startTestApp } from "./helpers/app.js";
import { useTestDatabase } from "./helpers/setup.js";
import { createTenant } from "./helpers/tenant.js";

const db = useTestDatabase();
const clock = manualClock(Date.UTC(2026, 10, 20, 12));
let t: TestApp;
beforeAll(async () => {
  t = await startTestApp(db().pool, { clock });
});
afterAll(() => t?.close());

const get = (url: string, key: string | null) => t.app.inject({ url, headers: key ? bearer(key) : {} });

describe("response cache (RESPONSE_CACHE_TTL_MS, 1 s by default)", () => {
  it("answers an identical read from the kept answer, and reads again once it is older than the TTL", async () => {
    const { key } = await createTenant(db().pool, { plan: "enterprise" });
    const first = await get("/api/v1/games/game/103", key);
    expect(first.json().data.display_game_name).toBe("Apple Quest");
    await db().pool.query("UPDATE games SET display_game_name = 'Apple Quest II' WHERE id = 103");

    const kept = await get("/api/v1/games/game/103", key);
    expect(kept.body).toBe(first.body);
    expect(kept.headers["content-type"]).toBe("application/json; charset=utf-8");

    clock.advance(1_001);
    expect((await get("/api/v1/games/game/103", key)).json().data.display_game_name).toBe("Apple Quest II");
  });

  it("sends a kept answer's exact UTF-8 bytes and their length, to GET and to HEAD", async () => {
    const { key } = await createTenant(db().pool, { plan: "enterprise" });
    await db().pool.query("UPDATE games SET display_game_name = 'Pokémon ポケモン' WHERE id = 252");
    clock.advance(1_001);
    const url = "/api/v1/games/game/252";
    const built = await get(url, key);
    const kept = await get(url, key);
    const head = await t.app.inject({ method: "HEAD", url, headers: bearer(key) });
    expect(built.json().data.display_game_name).toBe("Pokémon ポケモン");
    for (const answer of [built, kept]) {
      expect(answer.rawPayload.equals(built.rawPayload)).toBe(true);
      expect(Number(answer.headers["content-length"])).toBe(Buffer.byteLength(built.body));
    }
    expect(head.statusCode).toBe(200);
    expect(head.body).toBe("");
    expect(Number(head.headers["content-length"])).toBe(Buffer.byteLength(built.body));
  });

  it("keeps an answer past the TTL while the data is unchanged, and drops it within a TTL of any change", async () => {
    const { key } = await createTenant(db().pool, { plan: "enterprise" });
    const url = "/api/v1/games/game/104";
    const name = async () => (await get(url, key)).json().data.display_game_name;
    const original = await name();
    // Built once the data has been stable for a while: kept beyond the TTL, up to a minute.
    clock.advance(3_000);
    expect(await name()).toBe(original);
    await db().pool.query(
      "UPDATE games SET display_game_name = display_game_name || ' (kept)' WHERE id = 104",
    );
    clock.advance(500);
    expect(await name()).toBe(original);
    // The fingerprint is read again after a TTL: the change is seen, also made by hand as here.
    clock.advance(600);
    expect(await name()).toBe(`${original} (kept)`);
  });

  it("still authenticates and meters every request it answers", async () => {
    const { key } = await createTenant(db().pool, { plan: "starter" });
    const url = "/api/v1/games/titles?limit=2";
    const remaining = [];
    for (let i = 0; i < 3; i++) {
      const response = await get(url, key);
      expect(response.statusCode).toBe(200);
      remaining.push(Number(response.headers["x-ratelimit-remaining"]));
    }
    expect(remaining).toEqual([remaining[0], (remaining[0] ?? 0) - 1, (remaining[0] ?? 0) - 2]);
    expect((await get(url, null)).statusCode).toBe(401);
    expect((await get(url, "gmi_live_not-a-real-key")).statusCode).toBe(401);
  });

  it("sends a kept answer before validation and the handler with the same body and headers", async () => {
    const { key } = await createTenant(db().pool, { plan: "starter" });
    const url = "/api/v1/games/titles?limit=3";
    const built = await get(url, key);
    const kept = await get(url, key);
    expect(kept.statusCode).toBe(200);
    expect(kept.body).toBe(built.body);
    for (const name of ["content-type", "x-ratelimit-limit", "x-ratelimit-reset"])
      expect(kept.headers[name]).toBe(built.headers[name]);
    expect(Number(kept.headers["x-ratelimit-remaining"])).toBe(
      Number(built.headers["x-ratelimit-remaining"]) - 1,
    );
    expect(kept.headers["x-request-id"]).toMatch(/^[0-9a-f-]{36}$/);
    expect(kept.headers["x-request-id"]).not.toBe(built.headers["x-request-id"]);
    const head = await t.app.inject({ method: "HEAD", url, headers: bearer(key) });
    expect(head.statusCode).toBe(200);
    expect(head.body).toBe("");
    // A URL that fails validation is never kept, so it is refused every time.
    for (let i = 0; i < 2; i++) expect((await get("/api/v1/games/titles?limit=0", key)).statusCode).toBe(422);
  });

  it("shares an answer between plans that serve it the same page size, and only them", async () => {
    const free = await createTenant(db().pool, { plan: "free" });
    const pro = await createTenant(db().pool, { plan: "pro" });
    const shared = ["/api/v1/games/titles?page=2&limit=2", "/api/v1/games/titles"];
    const built = [];
    for (const url of shared) built.push((await get(url, free.key)).body);
    const renamed = "UPDATE games SET display_game_name = display_game_name || ' (new)'";
    await db().pool.query(renamed);
    try {
      // Within the TTL, the other plan is given the answer the first one built.
      for (const [i, url] of shared.entries()) expect((await get(url, pro.key)).body).toBe(built[i]);
      const own = (await get("/api/v1/games/titles?limit=40", pro.key)).json();
      expect(own.data[0].display_game_name).toMatch(/ \(new\)$/);
      expect((await get("/api/v1/games/titles?limit=40", free.key)).json().meta.pagination.per_page).toBe(25);
    } finally {
      await db().pool.query("UPDATE games SET display_game_name = left(display_game_name, -6)");
      clock.advance(1_001);
    }
  });

  it("keeps one answer per page-size cap: the same URL gives each plan its own per_page", async () => {
    const free = await createTenant(db().pool, { plan: "free" });
    const enterprise = await createTenant(db().pool, { plan: "enterprise" });
    const url = "/api/v1/games/titles?limit=100";
    expect((await get(url, enterprise.key)).json().meta.pagination.per_page).toBe(100);
    expect((await get(url, free.key)).json().meta.pagination.per_page).toBe(25);
  });

  it("keeps nothing when turned off", async () => {
    const off = await startTestApp(db().pool, {
      clock,
      env: { RESPONSE_CACHE_TTL_MS: "0" },
    });
    try {
      const { key } = await createTenant(db().pool, { plan: "enterprise" });
      const read = async () =>
        (await off.app.inject({ url: "/api/v1/games/game/105", headers: bearer(key) })).json();
      expect((await read()).data.display_game_name).toBe("Mango Mania");
      await db().pool.query("UPDATE games SET display_game_name = 'Mango Mania 2' WHERE id = 105");
      expect((await read()).data.display_game_name).toBe("Mango Mania 2");
    } finally {
      await off.close();
    }
  });
});
