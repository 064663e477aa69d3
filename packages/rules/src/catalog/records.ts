import type { ConsoleRecord, GameRecord } from "@gmi/contract";

/** A catalog price as stored (numeric(12,2) read as text, or a number) to the wire's "149.99". */
export const toDecimalString = (value: string | number | null | undefined): string | null => {
  if (value === null || value === undefined) return null;
  const n = typeof value === "number" ? value : Number(value);
  if (!Number.isFinite(n)) return null;
  return n.toFixed(2);
};

/** A joined games+consoles row as the data layer reads it. */
export type GameRow = {
  id: number;
  display_game_name: string;
  marketplace_game_name: string;
  console_id: number;
  console_name: string;
  console_slug: string;
  price_loose: string | null;
  price_complete: string | null;
  price_new: string | null;
};

export const toGameRecord = (row: GameRow): GameRecord => ({
  id: row.id,
  display_game_name: row.display_game_name,
  marketplace_game_name: row.marketplace_game_name,
  console_id: row.console_id,
  console_name: row.console_name,
  console_slug: row.console_slug,
  prices: {
    loose: toDecimalString(row.price_loose),
    complete: toDecimalString(row.price_complete),
    new: toDecimalString(row.price_new),
  },
});

export type ConsoleRow = { id: number; name: string; slug: string; game_count: number };

export const toConsoleRecord = (row: ConsoleRow): ConsoleRecord => ({
  id: row.id,
  name: row.name,
  slug: row.slug,
  game_count: row.game_count,
});
