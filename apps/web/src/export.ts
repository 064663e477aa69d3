import type { GameHistory, HistoryPoint, LiquidityRow } from "@gmi/sdk";
import { toCsv } from "./csv.js";

export type DayPrices = GameHistory["prices"][number];

/** One day of a history: its prices (every day has them), and its figures when it was computed. */
export type HistoryDay = { date: string; point: HistoryPoint | undefined; prices: DayPrices | undefined };

/** The days of a history, oldest first: the price days and the computed dates, joined by date. */
export const historyDays = (history: GameHistory): HistoryDay[] => {
  const points = new Map(history.points.map((p) => [p.date, p]));
  const prices = new Map(history.prices.map((p) => [p.date, p]));
  return [...new Set([...prices.keys(), ...points.keys()])]
    .sort()
    .map((date) => ({ date, point: points.get(date), prices: prices.get(date) }));
};

/** A leaderboard page as the API gave it: one line per row, every figure, prices as decimals. */
export const leaderboardCsv = (rows: readonly LiquidityRow[]): string =>
  toCsv(
    [
      "Rank",
      "Game id",
      "Game",
      "Console",
      "Liquidity score",
      "Demand index",
      "Redirects",
      "Distinct buyers",
      "Watchlist alerts",
      "Momentum",
      "Momentum value",
      "Loose",
      "Complete",
      "New",
      "Price accessibility",
    ],
    rows.map((row) => [
      row.rank,
      row.game.id,
      row.game.name,
      row.game.console_name,
      row.liquidity_score,
      row.demand.index,
      row.demand.redirects,
      row.demand.distinct_users,
      row.demand.watch_count,
      row.momentum.label,
      row.momentum.value,
      row.pricing.loose,
      row.pricing.complete,
      row.pricing.new,
      row.price_accessibility,
    ]),
  );

/** A game's history, a line per day: prices every day, the figures on computed days (else blank). */
export const historyCsv = (history: GameHistory): string =>
  toCsv(
    [
      "Date",
      "Loose",
      "Complete",
      "New",
      "Liquidity score",
      "Demand index",
      "Redirects",
      "Distinct buyers",
      "Watchlist alerts",
      "Searches",
    ],
    historyDays(history).map(({ date, point, prices }) => [
      date,
      prices?.loose ?? null,
      prices?.complete ?? null,
      prices?.new ?? null,
      point?.liquidity_score ?? null,
      point?.demand_index ?? null,
      point?.redirects ?? null,
      point?.distinct_users ?? null,
      point?.watch_count ?? null,
      point?.search_count ?? null,
    ]),
  );
