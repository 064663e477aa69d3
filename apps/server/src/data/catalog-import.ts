import { currentPrices, observePrices } from "../domain/catalog/price-runs.js";
import { titleKey } from "../domain/catalog/text.js";
import type { ConsoleRecord, GameRecord } from "../domain/import/parse-line.js";
import { readPriceRuns, replacePriceRuns } from "./price-observations.js";
import type { Sql } from "./sql.js";

/** The last record of an id wins, as if the lines were applied one by one. */
const lastById = <T extends { id: number }>(records: readonly T[]): T[] => [
  ...new Map(records.map((r) => [r.id, r])).values(),
];

export const upsertConsoles = async (db: Sql, records: readonly ConsoleRecord[]) => {
  const rows = lastById(records);
  if (rows.length === 0) return;
  await db.query(
    `INSERT INTO consoles (id, name, slug)
     SELECT * FROM unnest($1::int[], $2::text[], $3::text[])
     ON CONFLICT (id) DO UPDATE SET name = EXCLUDED.name, slug = EXCLUDED.slug`,
    [rows.map((r) => r.id), rows.map((r) => r.name), rows.map((r) => r.slug)],
  );
};

/**
 * Games are upserted whole, but for their prices: each line is an observation of them (at its
 * `observed_at`, else `importedAt`) added to the game's runs of unchanged prices, and a game's
 * current prices are its newest run's. So a line with a null price clears that price unless newer
 * prices were seen before, and a file of older prices fills in the past without overwriting them.
 */
export const upsertGames = async (db: Sql, records: readonly GameRecord[], importedAt: string) => {
  const rows = lastById(records);
  if (rows.length === 0) return;
  const stored = await readPriceRuns(
    db,
    rows.map((r) => r.id),
  );
  const changed = observePrices(
    stored,
    records.map((r) => ({ gameId: r.id, at: r.observedAt ?? importedAt, prices: r.prices })),
  );
  const current = rows.map((r) => currentPrices(changed.get(r.id) ?? stored.get(r.id) ?? []));
  await db.query(
    `INSERT INTO games (id, console_id, display_game_name, title_key, marketplace_game_name, enabled,
                        price_loose, price_complete, price_new, updated_at)
     SELECT *, now() FROM unnest($1::int[], $2::int[], $3::text[], $4::text[], $5::text[], $6::bool[],
       $7::numeric[], $8::numeric[], $9::numeric[])
     ON CONFLICT (id) DO UPDATE SET
       console_id = EXCLUDED.console_id, display_game_name = EXCLUDED.display_game_name,
       title_key = EXCLUDED.title_key, marketplace_game_name = EXCLUDED.marketplace_game_name,
       enabled = EXCLUDED.enabled, price_loose = EXCLUDED.price_loose,
       price_complete = EXCLUDED.price_complete, price_new = EXCLUDED.price_new, updated_at = now()`,
    [
      rows.map((r) => r.id),
      rows.map((r) => r.consoleId),
      rows.map((r) => r.displayGameName),
      rows.map((r) => titleKey(r.displayGameName)),
      rows.map((r) => r.marketplaceGameName),
      rows.map((r) => r.enabled),
      current.map((p) => p.loose),
      current.map((p) => p.complete),
      current.map((p) => p.new),
    ],
  );
  await replacePriceRuns(db, changed);
};
