import { contract } from "@gmi/contract";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TestApp } from "./helpers/app.js";
import { bearer, startTestApp } from "./helpers/app.js";
import { enabledByTitle, FIXTURE_GAMES } from "./helpers/catalog.js";
import { useTestDatabase } from "./helpers/setup.js";
import { createTenant } from "./helpers/tenant.js";

const db = useTestDatabase();
let t: TestApp;
let key: string;
beforeAll(async () => {
  t = await startTestApp(db().pool);
  key = (await createTenant(db().pool, { plan: "enterprise" })).key;
});
afterAll(() => t?.close());

const get = async (url: string, withKey = key) => {
  const response = await t.app.inject({ url, headers: bearer(withKey) });
  expect(response.statusCode, response.body).toBe(200);
  return response.json();
};

const ENABLED = FIXTURE_GAMES.filter((g) => g.enabled).length;

/** Follows links.next to the end; returns every row served. */
const walk = async (url: string, withKey = key) => {
  const rows: Array<{ id: number }> = [];
  let next: string | null = url;
  for (let guard = 0; next && guard < 100; guard++) {
    const body = await get(next.replace(/^https?:\/\/[^/]+/, ""), withKey);
    rows.push(...body.data);
    next = body.links.next;
  }
  return rows;
};

describe("GET /api/v1/games/titles", () => {
  it("page mode: alphabetical by name then id, true totals, links absolute with other params kept", async () => {
    const body = contract.games.titles.responses[200].parse(
      await get("/api/v1/games/titles?limit=5&page=2&paginate=page"),
    );
    const expected = enabledByTitle()
      .slice(5, 10)
      .map((g) => ({ id: g.id, display_game_name: g.displayGameName }));
    expect(body.data).toEqual(expected);
    expect(body.meta.pagination).toEqual({
      mode: "page",
      page: 2,
      per_page: 5,
      total: ENABLED,
      last_page: Math.ceil(ENABLED / 5),
    });
    expect(body.links.next).toBe("http://localhost:80/api/v1/games/titles?limit=5&page=3&paginate=page");
    expect(body.links.prev).toBe("http://localhost:80/api/v1/games/titles?limit=5&page=1&paginate=page");
  });

  it("ties on the name are ordered by id (the same title on two consoles)", async () => {
    const body = await get("/api/v1/games/titles?limit=200");
    const chrono = body.data.filter(
      (r: { display_game_name: string }) => r.display_game_name === "Chrono Trigger",
    );
    expect(chrono.map((r: { id: number }) => r.id)).toEqual([101, 102]);
    expect(body.data.map((r: { id: number }) => r.id)).not.toContain(106);
  });

  it("a page past the end is empty with the true total; the first page has no prev", async () => {
    const past = await get("/api/v1/games/titles?limit=25&page=99");
    expect(past.data).toEqual([]);
    expect(past.meta.pagination.total).toBe(ENABLED);
    expect((await get("/api/v1/games/titles")).links.prev).toBeNull();
  });

  it("cursor mode walks every row once, in order, and ends with next_cursor null", async () => {
    const rows = await walk("/api/v1/games/titles?paginate=cursor&limit=7");
    expect(rows.map((r) => r.id)).toEqual(enabledByTitle().map((g) => g.id));
    const first = await get("/api/v1/games/titles?paginate=cursor&limit=7");
    expect(first.meta.pagination).toMatchObject({ mode: "cursor", per_page: 7, total: ENABLED });
    expect(first.links.prev).toBeNull();
    const last = await get("/api/v1/games/titles?paginate=cursor&limit=500");
    expect(last.meta.pagination.next_cursor).toBeNull();
    expect(last.links.next).toBeNull();
  });

  it("a cursor from another endpoint or console is a 422 naming cursor", async () => {
    const cursor = (await get("/api/v1/games/titles?paginate=cursor&limit=2")).meta.pagination.next_cursor;
    for (const url of [`/api/v1/games/slugs?cursor=${cursor}`, `/api/v1/consoles?cursor=${cursor}`]) {
      const response = await t.app.inject({ url, headers: bearer(key) });
      expect(response.statusCode).toBe(422);
      expect(response.json().error.details.issues[0]).toMatchObject({ location: "query", field: "cursor" });
    }
    const c1 = (await get("/api/v1/games/console/1?paginate=cursor&limit=2")).meta.pagination.next_cursor;
    const foreign = await t.app.inject({ url: `/api/v1/games/console/2?cursor=${c1}`, headers: bearer(key) });
    expect(foreign.statusCode).toBe(422);
    const tampered = await t.app.inject({
      url: `/api/v1/games/titles?cursor=${cursor.slice(0, -2)}xx`,
      headers: bearer(key),
    });
    expect(tampered.statusCode).toBe(422);
  });

  it("links use PUBLIC_BASE_URL when configured", async () => {
    const proxied = await startTestApp(db().pool, { env: { PUBLIC_BASE_URL: "https://api.example.com/" } });
    try {
      const body = (
        await proxied.app.inject({ url: "/api/v1/games/titles?limit=2", headers: bearer(key) })
      ).json();
      expect(body.links.next).toBe(
        "https://api.example.com/api/v1/games/titles?limit=2&page=2&paginate=page",
      );
    } finally {
      await proxied.close();
    }
  });
});

describe("limit is capped silently at the plan's max_page_size", () => {
  for (const [plan, max] of [
    ["free", 25],
    ["starter", 50],
    ["pro", 100],
    ["enterprise", 200],
  ] as const) {
    it(`${plan}: per_page ${max}`, async () => {
      const tenant = await createTenant(db().pool, { plan });
      const body = await get("/api/v1/games/titles?limit=1000", tenant.key);
      expect(body.meta.pagination.per_page).toBe(max);
      expect(body.data.length).toBe(Math.min(max, ENABLED));
      const small = await get("/api/v1/games/titles?limit=3", tenant.key);
      expect(small.meta.pagination.per_page).toBe(3);
    });
  }
});

describe("other catalog endpoints", () => {
  it("slugs: by slug then id", async () => {
    const body = contract.games.slugs.responses[200].parse(await get("/api/v1/games/slugs?limit=200"));
    const slugs = body.data.map((r) => r.marketplace_game_name);
    expect(slugs).toEqual([...slugs].sort());
    expect(body.data.filter((r) => r.marketplace_game_name === "chrono-trigger").map((r) => r.id)).toEqual([
      101, 102,
    ]);
  });

  it("game by id: the full record, prices as decimal strings or null", async () => {
    const body = contract.games.byId.responses[200].parse(await get("/api/v1/games/game/101"));
    expect(body.data).toEqual({
      id: 101,
      display_game_name: "Chrono Trigger",
      marketplace_game_name: "chrono-trigger",
      console_id: 1,
      console_name: "Alpha Console",
      console_slug: "alpha-console",
      prices: { loose: "149.99", complete: "289.00", new: "999.50" },
    });
    const unpriced = await get("/api/v1/games/game/104");
    expect(unpriced.data.prices).toEqual({ loose: null, complete: null, new: null });
  });

  it("by title: URL-decoded, case-insensitive, several consoles; no match is an empty list", async () => {
    const body = contract.games.byTitle.responses[200].parse(
      await get("/api/v1/games/title/cHRONO%20trigger"),
    );
    expect(body.data.map((g) => g.id)).toEqual([101, 102]);
    expect(body.meta).toEqual({ count: 2 });
    expect(await get("/api/v1/games/title/Chrono")).toEqual({ data: [], meta: { count: 0 } });
    expect(await get("/api/v1/games/title/Hidden%20Gem")).toEqual({ data: [], meta: { count: 0 } });
  });

  it("by slug: exact, several consoles", async () => {
    const body = await get("/api/v1/games/slug/chrono-trigger");
    expect(body.meta.count).toBe(2);
    expect(await get("/api/v1/games/slug/nope")).toEqual({ data: [], meta: { count: 0 } });
  });

  it("by console: full objects by name then id; unknown console is an empty page", async () => {
    const body = contract.games.byConsole.responses[200].parse(await get("/api/v1/games/console/2?limit=3"));
    const expected = enabledByTitle().filter((g) => g.consoleId === 2);
    expect(body.data.map((g) => g.id)).toEqual(expected.slice(0, 3).map((g) => g.id));
    expect(body.meta.pagination).toMatchObject({ total: expected.length });
    expect((await walk("/api/v1/games/console/2?paginate=cursor&limit=4")).map((r) => r.id)).toEqual(
      expected.map((g) => g.id),
    );
    const unknown = await get("/api/v1/games/console/999");
    expect(unknown.data).toEqual([]);
    expect(unknown.meta.pagination).toEqual({ mode: "page", page: 1, per_page: 25, total: 0, last_page: 1 });
  });

  it("consoles: by name, with the count of enabled games", async () => {
    const body = contract.consoles.list.responses[200].parse(await get("/api/v1/consoles"));
    expect(body.data.map((c) => [c.name, c.game_count])).toEqual([
      ["Alpha Console", FIXTURE_GAMES.filter((g) => g.consoleId === 1 && g.enabled).length],
      ["Beta Console", FIXTURE_GAMES.filter((g) => g.consoleId === 2 && g.enabled).length],
      ["Empty Console", 0],
    ]);
  });

  it("HEAD works on catalog routes and is authenticated", async () => {
    expect(
      (await t.app.inject({ method: "HEAD", url: "/api/v1/games/titles", headers: bearer(key) })).statusCode,
    ).toBe(200);
    expect((await t.app.inject({ method: "HEAD", url: "/api/v1/games/titles" })).statusCode).toBe(401);
  });
});
