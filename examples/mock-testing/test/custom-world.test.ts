import { describe, expect, it } from "vitest";
import { createClient, loadTopSellers } from "../src/top-sellers.js";
import { useGmiMocks } from "./gmi-mocks.js";

// A smaller world of its own seed, on the Free plan; the figures are read from what the mocks serve
// (`gmi.fixtures`), never copied into the test.
const gmi = useGmiMocks({ games: 60, searches: 10, seed: 42, plan: "free" });

describe("a custom world", () => {
  it("serves its own games, ranked by liquidity", async () => {
    const view = await loadTopSellers(createClient(gmi.baseUrl), { limit: 3 });
    const best = [...gmi.fixtures.liquidity].sort((a, b) => b.liquidity_score - a.liquidity_score)[0];
    expect(view).toMatchObject({ state: "ready", rows: [{ rank: 1, name: best?.game.name }, {}, {}] });
  });

  it("pages with the Free plan's cap, silently, as the server does", async () => {
    expect(gmi.fixtures.liquidity.length).toBeGreaterThan(25);
    const page = await createClient(gmi.baseUrl).intelligence.list({ limit: 100 });
    expect(page.data).toHaveLength(25);
    expect(page.meta.pagination.per_page).toBe(25);
  });
});
