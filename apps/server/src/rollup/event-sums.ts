import type { Period } from "@gmi/contract";
import type { ConditionAggregate } from "../domain/analytics/conditions.js";

/**
 * The shape of a rollup's game and condition sums, whether aggregated over whole windows
 * (analytics-aggregates.ts) or slid from the previous date's (event-slide.ts): a row per game, or
 * per (game, condition), with a column `<sum>_<period>` per sum and period (`redirects_day`,
 * `users_7d`, `searches_30d`, ...). A sum is named as the cell column it adds up.
 */
export type SumRow = { game_id: number; condition: string } & Record<string, number | null>;

export type EventSums = { redirects: SumRow[]; watches: SumRow[]; searches: SumRow[] };

/** The sums of the redirect cells, per game: its (game, user) pairs first, then the counts. */
export const REDIRECT_SUMS = ["users", "redirects", "loose", "cib", "sealed"] as const;
export type RedirectSum = (typeof REDIRECT_SUMS)[number];

/** The sums of the search-condition cells, per (game, condition): pairs first, then the counts. */
export const SEARCH_SUMS = ["users", "searches", "mobile"] as const;
export type SearchSum = (typeof SEARCH_SUMS)[number];

/** The sum of the alert cells, per (game, condition): the alerts active in the window. */
export const ALERT_SUM = "alerts";

/** The redirect sum counting a listing condition's redirects (a `new` copy is a sealed one). */
export const REDIRECT_SUM_OF_CONDITION = {
  loose: "loose",
  cib: "cib",
  new: "sealed",
} as const satisfies Partial<Record<ConditionAggregate["condition"], RedirectSum>>;

export const sumColumn = (sum: string, period: Period): string => `${sum}_${period}`;

/** A sum of a row; 0 when the row or the column is missing (no cell). */
export const valueIn = (row: SumRow | undefined, sum: string, period: Period): number =>
  row?.[sumColumn(sum, period)] ?? 0;
