import { readFile } from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { upsertConsoles, upsertGames } from "../src/data/catalog-import.js";
import { MIGRATIONS_DIR, migrationNames } from "../src/db/migrate.js";
import { slugify, titleKey } from "../src/domain/catalog/text.js";
import type { GameRecord } from "../src/domain/import/parse-line.js";
import type { TestApp } from "./helpers/app.js";
import { bearer, startTestApp } from "./helpers/app.js";
import { useTestDatabase } from "./helpers/setup.js";
import { createTenant } from "./helpers/tenant.js";

/** Title lookup folds diacritics and case; titles sort with a Unicode collation (issue 21, item 5). */
const db = useTestDatabase({ catalog: false });
let t: TestApp;
let key: string;

const NAMES: [number, string][] = [
  [201, "Pokemon Emerald"],
  [202, "Pokémon Ruby"],
  [203, "apple Pie"],
  [204, "Émile"],
  [205, "Zelda II"],
  [206, "Ōkami"],
];
const game = ([id, name]: [number, string]): GameRecord => ({
  type: "game",
  id,
  consoleId: 1,
  displayGameName: name,
  marketplaceGameName: slugify(name),
  enabled: true,
  prices: { loose: null, complete: null, new: null },
  observedAt: null,
});
const NOW = new Date().toISOString();
/** Collation order: case and accents only break ties, so Ōkami sits with the o's. */
const SORTED = ["apple Pie", "Émile", "Ōkami", "Pokemon Emerald", "Pokémon Ruby", "Zelda II"];

beforeAll(async () => {
  await upsertConsoles(db().pool, [{ type: "console", id: 1, name: "Alpha Console", slug: "alpha-console" }]);
  await upsertGames(db().pool, NAMES.map(game), NOW);
  t = await startTestApp(db().pool);
  key = (await createTenant(db().pool)).key;
});
afterAll(() => t?.close());

const get = async (url: string) => {
  const response = await t.app.inject({ url, headers: bearer(key) });
  expect(response.statusCode, response.body).toBe(200);
  return response.json();
};
const names = (body: { data: { display_game_name: string }[] }) => body.data.map((g) => g.display_game_name);

describe("GET /games/title/{title}", () => {
  it("finds a title whatever its diacritics and case, both ways", async () => {
    for (const [asked, found] of [
      ["Pokémon Emerald", 201],
      ["POKEMON EMERALD", 201],
      ["Pokemon Ruby", 202],
      ["pokémon ruby", 202],
      ["EMILE", 204],
      ["okami", 206],
    ] as const) {
      const body = await get(`/api/v1/games/title/${encodeURIComponent(asked)}`);
      expect(
        body.data.map((g: { id: number }) => g.id),
        asked,
      ).toEqual([found]);
    }
  });
});

describe("title order", () => {
  it("lists titles by a Unicode collation, not by code point", async () => {
    expect(names(await get("/api/v1/games/titles?limit=10"))).toEqual(SORTED);
    const consoleGames = await get("/api/v1/games/console/1?limit=10");
    expect(names(consoleGames)).toEqual(SORTED);
  });

  it("walks the same order by cursor", async () => {
    const seen: string[] = [];
    let url: string | null = "/api/v1/games/titles?limit=2&paginate=cursor";
    while (url) {
      const body = await get(url);
      seen.push(...names(body));
      url = body.links.next ? body.links.next.replace(/^https?:\/\/[^/]+/, "") : null;
    }
    expect(seen).toEqual(SORTED);
  });
});

describe("the migration that folds existing title keys", () => {
  it("recomputes stored keys exactly as titleKey does", async () => {
    const tricky = [
      "ＦＵＬＬ Width Pokémon",
      "Ǿrsted Straße",
      "Ἀχιλλεύς ΣΟΦΟΣ",
      "ﬁnal ﬁght",
      "नमस्ते ポケモン ガ",
    ];
    await upsertGames(
      db().pool,
      tricky.map((name, i) => ({ ...game([300 + i, name]), marketplaceGameName: `tricky-${i}` })),
      NOW,
    );
    // As keys were before: plain lower case.
    await db().pool.query("UPDATE games SET title_key = lower(display_game_name)");
    const folder = (await migrationNames()).find((n) => n.endsWith("_title_key_folds_diacritics"));
    if (!folder) throw new Error("migration not found");
    await db().pool.query(await readFile(path.join(MIGRATIONS_DIR, folder, "migration.sql"), "utf8"));
    const { rows } = await db().pool.query<{ display_game_name: string; title_key: string }>(
      "SELECT display_game_name, title_key FROM games",
    );
    expect(rows.length).toBe(NAMES.length + tricky.length);
    for (const row of rows)
      expect(row.title_key, row.display_game_name).toBe(titleKey(row.display_game_name));
  });
});
