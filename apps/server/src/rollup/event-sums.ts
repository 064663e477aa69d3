import type { Period } from "@gmi/contract";

/**
 * The shape of a rollup's game and condition sums, whether aggregated over whole windows
 * (analytics-aggregates.ts) or slid from the previous date's (event-slide.ts): a row per game, or
 * per (game, condition), with a column `<name>_<period suffix>` per sum (`r_d`, `u_w`, `n_m`, ...).
 */
export type SumRow = { game_id: number; condition: string } & Record<string, number | null>;

export type EventSums = { redirects: SumRow[]; watches: SumRow[]; searches: SumRow[] };

/** The suffix of a period's columns (`r_d`, `r_w`, `r_m`). */
export const SUFFIX: Record<Period, string> = { day: "d", "7d": "w", "30d": "m" };

export const sumColumn = (name: string, period: Period) => `${name}_${SUFFIX[period]}`;

/** A sum of a row; 0 when the row or the column is missing (no cell). */
export const valueIn = (row: SumRow | undefined, name: string, period: Period): number =>
  row?.[sumColumn(name, period)] ?? 0;
