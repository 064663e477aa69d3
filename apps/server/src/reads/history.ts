import { isHistoryRangeProblem, type Period, resolveHistoryRange } from "@gmi/contract";
import { readGameHistory } from "../data/history-reads.js";
import { todayOf } from "../domain/analytics/windows.js";
import { dailyPrices, priceChanges } from "../domain/catalog/price-history.js";
import { notFound, validationFailed } from "../errors.js";
import type { ReadDeps } from "./deps.js";
import { historyMeta } from "./meta.js";
import { zeroDemandRow } from "./profiles.js";
import { notComputedYet } from "./snapshot.js";

/**
 * A game's daily points over a date range (`GET /intelligence/:id/history`, beyond the interface).
 * A snapshot without the game's row means no demand that date: the point is zero demand, scored the
 * way the profile scores such a game (docs/decisions.md). Prices come from the catalog's
 * observations, not the snapshots: every day of the range has them, computed or not. All of it is
 * read in one statement (data/history-reads.ts).
 */
export const gameHistoryBody = async (
  reads: Pick<ReadDeps, "sql" | "clock" | "scoring">,
  gameId: number,
  query: { period: Period; from?: string | undefined; to?: string | undefined },
) => {
  const stored = await readGameHistory(reads.sql, gameId, query.period, todayOf(reads.clock), query);
  const { game, latest } = stored;
  if (!game) throw notFound("game", gameId);
  // The default range ends at the latest computed date that is not in the future.
  if (latest === null) throw notComputedYet();
  const range = resolveHistoryRange(query, latest);
  if (isHistoryRangeProblem(range)) throw validationFailed("query", range.field, range.message);
  // The statement resolves the range as the contract does; were they ever to differ, not a wrong answer.
  if (stored.range?.from !== range.from || stored.range.to !== range.to)
    throw new Error(
      `history range read as ${JSON.stringify(stored.range)}, resolved as ${JSON.stringify(range)}`,
    );

  const idle = stored.points.some((p) => p.liquidityScore === null)
    ? zeroDemandRow(game, stored.maxComplete, reads.scoring)
    : null;
  const points = stored.points.map((p) => ({
    date: p.date,
    liquidity_score: p.liquidityScore ?? idle?.liquidityScore ?? 0,
    demand_index: p.demandIndex ?? 0,
    redirects: p.redirects ?? 0,
    distinct_users: p.distinctUsers ?? 0,
    watch_count: p.watchCount ?? 0,
    search_count: p.searchCount ?? 0,
  }));
  return {
    data: {
      game: game.identity,
      points,
      prices: dailyPrices(stored.prices, range),
      price_changes: priceChanges(stored.prices, range.to),
    },
    meta: historyMeta(query.period, range),
  };
};
