import { readFileSync } from "node:fs";
import type { MockWorld } from "@gmi/sdk/msw";
import { describe, expect, it } from "vitest";
import { createClient, loadTopSellers } from "../src/top-sellers.js";
import { useGmiMocks } from "./gmi-mocks.js";

/**
 * Worlds of your own. fixtures/world.json is what `gmi export-mock-world` wrote from a server's
 * database (a copy of its figures: here a small marketplace, scripts/refresh-in-repo.ts); a world is
 * plain JSON, so a test can also edit one. The figures are read from the world, never copied into
 * the test.
 */
const exported: MockWorld = JSON.parse(
  readFileSync(new URL("../fixtures/world.json", import.meta.url), "utf8"),
);
const DATE = "2026-11-20";

/** The world's own leaderboard of a date: its all-consoles 7-day rows, best first. */
const leaderboard = (world: MockWorld) => {
  const snapshot = world.snapshots.find((s) => s.period === "7d" && s.date === DATE);
  const names = new Map(world.catalog.games.map((g) => [g.id, g.display_game_name]));
  return (snapshot?.liquidity ?? [])
    .filter((row) => row.scopeConsoleId === 0 && row.rankLiquidity !== null)
    .sort((a, b) => (a.rankLiquidity ?? 0) - (b.rankLiquidity ?? 0))
    .map((row) => names.get(row.gameId));
};

describe("a world exported from a server", () => {
  const gmi = useGmiMocks({ world: exported, baseUrl: "https://exported.gmi.test" });

  it("serves that server's figures", async () => {
    const view = await loadTopSellers(createClient(gmi.baseUrl), { limit: 3 });
    expect(view).toMatchObject({ state: "ready", date: DATE });
    expect(view.state === "ready" && view.rows.map((r) => r.name)).toEqual(leaderboard(exported).slice(0, 3));
  });
});

describe("a world edited by hand", () => {
  // The best game renamed, as a test of a long name or of accents would: the rest is as exported.
  const best = exported.catalog.games.find((g) => g.display_game_name === leaderboard(exported)[0]);
  const renamed = "Pokémon Édition Spéciale: la très longue aventure";
  const edited: MockWorld = {
    ...exported,
    catalog: {
      ...exported.catalog,
      games: exported.catalog.games.map((g) => (g === best ? { ...g, display_game_name: renamed } : g)),
    },
  };
  const gmi = useGmiMocks({ world: edited, baseUrl: "https://edited.gmi.test" });

  it("answers from the edit, on every route", async () => {
    const client = createClient(gmi.baseUrl);
    const view = await loadTopSellers(client, { limit: 1 });
    expect(view).toMatchObject({ state: "ready", rows: [{ rank: 1, name: renamed }] });
    expect((await client.games.get(best?.id ?? 0)).data.display_game_name).toBe(renamed);
  });
});

describe("a generated world of another size, seed and plan", () => {
  const gmi = useGmiMocks({
    games: 60,
    searches: 10,
    seed: 42,
    plan: "free",
    baseUrl: "https://generated.gmi.test",
  });

  it("pages with the Free plan's cap, silently, as the server does", async () => {
    expect(gmi.fixtures.liquidity.length).toBeGreaterThan(25);
    const page = await createClient(gmi.baseUrl).intelligence.list({ limit: 100 });
    expect(page.data).toHaveLength(25);
    expect(page.meta.pagination.per_page).toBe(25);
  });
});
