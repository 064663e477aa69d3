import {
  type HistoryPrice,
  PRICE_CHANGE_DAYS,
  type PriceChange,
  type PriceChanges,
  type Pricing,
} from "@gmi/contract";
import { round4 } from "../analytics/rounding.js";
import { addDays, daysBetween, type IsoDay } from "../analytics/windows.js";

/** A game's prices as observed on a UTC day; a day's last observation is the one that holds at its end. */
export type DatedPrices = { day: IsoDay; prices: Pricing };

const NO_PRICES: Pricing = { loose: null, complete: null, new: null };

/**
 * The prices in force at the end of each day of `from`..`to`: a step function of the observations
 * (oldest first), each holding until the next. Days before the first observation have no prices:
 * nothing was known then, which is not the same as a price of 0.
 */
export const dailyPrices = (
  observations: readonly DatedPrices[],
  range: { from: IsoDay; to: IsoDay },
): HistoryPrice[] => {
  const out: HistoryPrice[] = [];
  let next = 0;
  let current = NO_PRICES;
  // Counted, not stepped past `to`: the day after 9999-12-31 is no date.
  for (let i = 0; i <= daysBetween(range.from, range.to); i += 1) {
    const day = addDays(range.from, i);
    for (let o = observations[next]; o !== undefined && o.day <= day; o = observations[++next])
      current = o.prices;
    out.push({ date: day, ...current });
  }
  return out;
};

/** The prices in force at the end of `day`. */
export const pricesOn = (observations: readonly DatedPrices[], day: IsoDay): Pricing =>
  observations.findLast((o) => o.day <= day)?.prices ?? NO_PRICES;

/** Each span of PRICE_CHANGE_DAYS, ending on `to`: how each condition's price moved over it. */
export const priceChanges = (observations: readonly DatedPrices[], to: IsoDay): PriceChanges[] => {
  const end = pricesOn(observations, to);
  return PRICE_CHANGE_DAYS.map((days) => {
    const since = addDays(to, -days);
    const start = pricesOn(observations, since);
    const change = (condition: keyof Pricing) => priceChange(start[condition], end[condition]);
    return { days, since, loose: change("loose"), complete: change("complete"), new: change("new") };
  });
};

/** Two prices compared in whole cents (decimal strings with two decimals: exact, unlike floats). */
export const priceChange = (start: string | null, end: string | null): PriceChange | null => {
  if (start === null || end === null) return null;
  const from = cents(start);
  const change = cents(end) - from;
  const ratio = from === 0 ? null : Math.sign(change) * round4(Math.abs(change) / from);
  return { start, end, change: decimalText(change), change_ratio: ratio === 0 ? 0 : ratio };
};

const cents = (price: string): number => {
  const [whole = "0", fraction = "00"] = price.split(".");
  return Number(whole) * 100 + Number(fraction.padEnd(2, "0"));
};

const decimalText = (cents: number): string => {
  const abs = Math.abs(cents);
  return `${cents < 0 ? "-" : ""}${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, "0")}`;
};
