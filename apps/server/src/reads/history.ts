import { isHistoryRangeProblem, type Period, PRICE_CHANGE_DAYS, resolveHistoryRange } from "@gmi/contract";
import { maxCompletePrice, readGameInfo } from "../data/analytics-reads.js";
import { readGameHistory } from "../data/history-reads.js";
import { readDatedPrices } from "../data/price-observations.js";
import { findSnapshot } from "../data/snapshots.js";
import { addDays, daysBetween, todayOf } from "../domain/analytics/windows.js";
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
 * observations, not the snapshots: every day of the range has them, computed or not.
 */
export const gameHistoryBody = async (
  reads: Pick<ReadDeps, "sql" | "clock" | "scoring">,
  gameId: number,
  query: { period: Period; from?: string | undefined; to?: string | undefined },
) => {
  const { sql, scoring } = reads;
  const today = todayOf(reads.clock);
  const game = await readGameInfo(sql, gameId);
  if (!game) throw notFound("game", gameId);
  // The default range ends at the latest computed date that is not in the future.
  const latest = await findSnapshot(sql, query.period, undefined, today);
  if (!latest) throw notComputedYet();
  const range = resolveHistoryRange(query, latest.date);
  if (isHistoryRangeProblem(range)) throw validationFailed("query", range.field, range.message);

  // Prices from the range's first day, or from the start of the longest change if that is earlier.
  const back = Math.max(daysBetween(range.from, range.to), ...PRICE_CHANGE_DAYS);
  const [stored, observed] = await Promise.all([
    readGameHistory(sql, gameId, query.period, range.from, range.to),
    readDatedPrices(sql, gameId, addDays(range.to, -back), range.to),
  ]);
  const idle = stored.some((p) => p.liquidityScore === null)
    ? zeroDemandRow(game, await maxCompletePrice(sql), scoring)
    : null;
  const points = stored.map((p) => ({
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
      prices: dailyPrices(observed, range),
      price_changes: priceChanges(observed, range.to),
    },
    meta: historyMeta(query.period, range),
  };
};
