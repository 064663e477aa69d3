import { upsertConsoles, upsertGames } from "../../src/data/catalog-import.js";
import type { Sql } from "../../src/data/sql.js";
import { slugify } from "../../src/domain/catalog/text.js";
import type { ConsoleRecord, GameRecord } from "../../src/domain/import/parse-line.js";

/**
 * A small fixed catalog with the cases the tests need: the same title on two consoles (ties broken
 * by id), a disabled game, a game without prices, a console without games. Names avoid case and
 * punctuation differences so the order is the same under any collation.
 */
export const FIXTURE_CONSOLES: ConsoleRecord[] = [
  { type: "console", id: 1, name: "Alpha Console", slug: "alpha-console" },
  { type: "console", id: 2, name: "Beta Console", slug: "beta-console" },
  { type: "console", id: 3, name: "Empty Console", slug: "empty-console" },
];

const game = (
  id: number,
  consoleId: number,
  name: string,
  prices: [string, string, string] | null,
  enabled = true,
): GameRecord => ({
  type: "game",
  id,
  consoleId,
  displayGameName: name,
  marketplaceGameName: slugify(name),
  enabled,
  prices: prices
    ? { loose: prices[0], complete: prices[1], new: prices[2] }
    : { loose: null, complete: null, new: null },
  observedAt: null,
});

export const FIXTURE_GAMES: GameRecord[] = [
  game(101, 1, "Chrono Trigger", ["149.99", "289.00", "999.50"]),
  game(102, 2, "Chrono Trigger", ["120.00", "250.00", "800.00"]),
  game(103, 1, "Apple Quest", ["5.00", "10.00", "20.00"]),
  game(104, 1, "Zebra Racer", null),
  game(105, 2, "Mango Mania", ["7.25", "12.50", "30.00"]),
  game(106, 1, "Hidden Gem", ["1.00", "2.00", "3.00"], false),
  game(107, 2, "Banana Bash", ["3.10", "6.20", "12.40"]),
  ...Array.from({ length: 53 }, (_, i) =>
    game(200 + i, 1 + (i % 2), `Filler Title ${String(i).padStart(2, "0")}`, ["1.50", "3.00", "6.00"]),
  ),
];

/** Enabled games, in the API's title order (name, then id). */
export const enabledByTitle = () =>
  FIXTURE_GAMES.filter((g) => g.enabled).sort((a, b) =>
    a.displayGameName === b.displayGameName ? a.id - b.id : a.displayGameName < b.displayGameName ? -1 : 1,
  );

/** Loaded as the importer loads a catalog. */
export const loadFixtureCatalog = async (sql: Sql) => {
  await upsertConsoles(sql, FIXTURE_CONSOLES);
  await upsertGames(sql, FIXTURE_GAMES, new Date().toISOString());
};
