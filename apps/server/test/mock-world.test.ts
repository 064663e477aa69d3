import { listRoutes, PLANS } from "@gmi/contract";
import { unsignedCursors } from "@gmi/rules/pagination/cursor";
import { type WorldReadName, worldProfiles, worldReads } from "@gmi/rules/world/reads";
import type { MockWorld } from "@gmi/rules/world/types";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { exportMockWorld } from "../src/data/mock-world.js";
import { seedDemo } from "../src/demo/seed.js";
import { DEFAULT_SCORING } from "../src/domain/analytics/weights.js";
import { ApiError } from "../src/errors.js";
import type { TestApp } from "./helpers/app.js";
import { bearer, startTestApp } from "./helpers/app.js";
import { useTestDatabase } from "./helpers/setup.js";
import { createTenant } from "./helpers/tenant.js";

/**
 * A rolled-up database exported as a mock world answers as the server does: every GET read of
 * `@gmi/rules/world/reads` over the export equals the server's answer to the same request (cursor
 * values aside: the server signs them, the mocks do not).
 */
const END = "2026-11-20";
const DATES = ["2026-11-17", "2026-11-18", "2026-11-19", "2026-11-20"];
const ORIGIN = "https://api.mock-world.test";
const db = useTestDatabase({ catalog: false });
let t: TestApp;
let key: string;
let world: MockWorld;

beforeAll(async () => {
  await seedDemo(db(), DEFAULT_SCORING, { scale: "small", seed: 7, endDate: END, rollupDays: 4 });
  t = await startTestApp(db().pool, { env: { PUBLIC_BASE_URL: ORIGIN } });
  key = (await createTenant(db().pool, { plan: "starter" })).key;
  // Through JSON, as a file would carry it.
  world = JSON.parse(
    JSON.stringify(await exportMockWorld(db().pool, { dates: DATES, scoring: DEFAULT_SCORING })),
  );
}, 180_000);
afterAll(() => t?.close());

/** Cursor values differ by design (signed vs unsigned); everything around them must not. */
const withoutCursors = (body: unknown) =>
  JSON.parse(
    JSON.stringify(body)
      .replace(/"next_cursor":"[^"]+"/g, '"next_cursor":"<cursor>"')
      .replace(/cursor=[^&"]+/g, "cursor=<cursor>"),
  );

const server = async (url: string) => {
  const response = await t.app.inject({ url, headers: bearer(key) });
  return { status: response.statusCode, body: response.json() };
};

const ROUTES = new Map(listRoutes().map(({ name, route }) => [name, route]));

/** The request as msw hands it over: query and path parsed by the route's own schemas. */
const mock = (name: WorldReadName, url: string, _query: Record<string, unknown>, params = {}) => {
  const route = ROUTES.get(name) as unknown as { query?: { parse(v: unknown): Record<string, unknown> } };
  const query = route.query?.parse(Object.fromEntries(new URL(url, ORIGIN).searchParams)) ?? {};
  const context = {
    caller: { maxPageSize: PLANS.starter.max_page_size, origin: ORIGIN, url },
    now: Date.now(),
    cursors: unsignedCursors,
  };
  try {
    return { status: 200, body: worldReads[name](world, { query, params }, context) };
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    return { status: error.status, body: error.toBody() };
  }
};

const page = { limit: 100, page: 1, paginate: "page" };

describe("exportMockWorld", () => {
  it("holds the catalog and every period's snapshots of the dates asked", () => {
    expect(world.version).toBe(1);
    expect(world.snapshots.map((s) => `${s.period} ${s.date}`).sort()).toEqual(
      ["30d", "7d", "day"].flatMap((p) => DATES.map((d) => `${p} ${d}`)).sort(),
    );
    expect(world.catalog.games.length).toBeGreaterThan(10);
    expect(world.snapshots.every((s) => s.liquidity.length > 0 && s.searches.length > 0)).toBe(true);
  });

  const cases: Array<[WorldReadName, string, Record<string, unknown>, Record<string, unknown>?]> = [
    ["intelligence.list", "/api/v1/intelligence", { period: "7d", sort: "liquidity", ...page }],
    [
      "intelligence.list",
      "/api/v1/intelligence?page=2&limit=10&sort=value&period=30d",
      { period: "30d", sort: "value", ...page, page: 2, limit: 10 },
    ],
    [
      "intelligence.list",
      "/api/v1/intelligence?console_id=2&sort=demand&period=day&date=2026-11-18",
      { period: "day", date: "2026-11-18", console_id: 2, sort: "demand", ...page },
    ],
    [
      "intelligence.list",
      "/api/v1/intelligence?paginate=cursor&limit=5",
      { period: "7d", sort: "liquidity", ...page, limit: 5, paginate: "cursor" },
    ],
    [
      "intelligence.list",
      "/api/v1/intelligence?date=2026-01-01",
      { period: "7d", date: "2026-01-01", sort: "liquidity", ...page },
    ],
    [
      "demandIntent.searches",
      "/api/v1/demand-intent/searches?sort=momentum",
      { period: "7d", sort: "momentum", ...page },
    ],
    [
      "demandIntent.searches",
      "/api/v1/demand-intent/searches?limit=7&page=3",
      { period: "7d", sort: "volume", ...page, limit: 7, page: 3 },
    ],
    [
      "demandIntent.trending",
      "/api/v1/demand-intent/searches/trending?period=30d",
      { period: "30d", ...page },
    ],
    [
      "demandIntent.unmet",
      "/api/v1/demand-intent/searches/unmet?console_id=1",
      { period: "7d", console_id: 1, ...page },
    ],
    ["demandIntent.conditions", "/api/v1/demand-intent/searches/conditions", { period: "7d" }],
    ["games.titles", "/api/v1/games/titles?limit=20&page=2", { ...page, limit: 20, page: 2 }],
    ["games.slugs", "/api/v1/games/slugs", page],
    ["consoles.list", "/api/v1/consoles", page],
    ["games.byConsole", "/api/v1/games/console/3", page, { console_id: 3 }],
  ];
  it.each(cases)("%s %s equals the server's answer", async (name, url, query, params = {}) => {
    const [expected, actual] = [await server(url), mock(name, url, query, params)];
    expect(actual.status).toBe(expected.status);
    expect(withoutCursors(actual.body)).toEqual(withoutCursors(expected.body));
  });

  it("answers a game's profile, conditions, history and lookups as the server does", async () => {
    const leader = (await server("/api/v1/intelligence?limit=1")).body.data[0];
    const idle = world.catalog.games.find(
      (g) => !world.snapshots.some((s) => s.liquidity.some((r) => r.gameId === g.id && r.redirects > 0)),
    );
    for (const game of [leader.game.id, idle?.id ?? leader.game.id, 999_999]) {
      const checks: Array<[WorldReadName, string, Record<string, unknown>, Record<string, unknown>]> = [
        ["intelligence.get", `/api/v1/intelligence/${game}`, { period: "7d" }, { id: game }],
        [
          "intelligence.get",
          `/api/v1/intelligence/${game}?period=day&date=2026-11-18`,
          { period: "day", date: "2026-11-18" },
          { id: game },
        ],
        [
          "intelligence.conditions",
          `/api/v1/intelligence/${game}/conditions`,
          { period: "7d" },
          { id: game },
        ],
        ["intelligence.history", `/api/v1/intelligence/${game}/history`, { period: "day" }, { id: game }],
        [
          "intelligence.history",
          `/api/v1/intelligence/${game}/history?period=7d&from=2026-11-18`,
          { period: "7d", from: "2026-11-18" },
          { id: game },
        ],
        [
          "demandIntent.gameConditions",
          `/api/v1/demand-intent/games/${game}/conditions?period=30d`,
          { period: "30d" },
          { game_id: game },
        ],
        ["games.byId", `/api/v1/games/game/${game}`, {}, { id: game }],
      ];
      for (const [name, url, query, params] of checks) {
        const [expected, actual] = [await server(url), mock(name, url, query, params)];
        expect({ url, status: actual.status }).toEqual({ url, status: expected.status });
        expect(actual.body).toEqual(expected.body);
      }
    }
    const sample = world.catalog.games[3];
    for (const [name, url, params] of [
      [
        "games.bySlug",
        `/api/v1/games/slug/${sample?.marketplace_game_name}`,
        { slug: sample?.marketplace_game_name },
      ],
      [
        "games.byTitle",
        `/api/v1/games/title/${encodeURIComponent(String(sample?.display_game_name).toUpperCase())}`,
        { title: String(sample?.display_game_name).toUpperCase() },
      ],
    ] as const) {
      expect(mock(name, url, {}, params).body).toEqual((await server(url)).body);
    }
  });

  it("answers a batch's rows from the same snapshot", async () => {
    const ids = world.catalog.games.slice(0, 5).map((g) => g.id);
    const response = await t.app.inject({
      method: "POST",
      url: "/api/v1/intelligence/batch?period=day",
      headers: bearer(key),
      payload: { requests: [...ids.map((game_id) => ({ game_id })), { game_id: 999_999 }] },
    });
    const rows = worldProfiles(world, { period: "day", date: END });
    const served = response.json() as { data: Array<{ data: unknown }> };
    expect(served.data.map((item) => item.data)).toEqual([
      ...ids.map((id) => rows.intelligence(id)),
      { game_id: 999_999, found: false },
    ]);
  });
});
