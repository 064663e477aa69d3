import { type Momentum, PERIOD_DAYS } from "@gmi/contract";
import { round4 } from "./rounding.js";

export type MomentumLabel = Momentum["label"];

/** Event counts of the two momentum windows, both ending on the period date D. */
export type MomentumCounts = {
  /** Events in D-6..D. */
  recent7d: number;
  /** Events in D-29..D (the 7 recent days included). */
  last30d: number;
};

/** The recent window: the 7d period's days, D-6..D. */
export const RECENT_DAYS = PERIOD_DAYS["7d"];
/** The baseline: the days of the 30-day window before the recent 7, D-29..D-7 (23). */
export const BASELINE_DAYS = PERIOD_DAYS["30d"] - RECENT_DAYS;

/**
 * The fewest events in the baseline that make one: with 1 search in 23 days, 3 this week read as a
 * pace of 9.86 and filled the top of `/trending` with queries of 3 searches. Below it there is no
 * baseline (`unknown`); the same 5 as the unmet list's minimum search count.
 */
export const MOMENTUM_MIN_BASELINE = 5;

/** Label thresholds in tenths (1.2 and 0.8), so the comparison below stays in integers. */
const RISING_AT_TENTHS = 12;
const STEADY_FROM_TENTHS = 8;

/**
 * The recent 7-day pace against the baseline's pace: (recent / 7) / (baseline / 23), where the
 * baseline is the 30-day window without the recent 7 days (D-29..D-7). The two do not overlap: an
 * overlapping baseline gave every new query a pace of 30/7 ("rising") from its very first search,
 * so nothing ever lacked a baseline and `/trending` was the volume list. Fewer than
 * MOMENTUM_MIN_BASELINE events before the recent week means no baseline: `unknown`, value null. The label is decided on the exact ratio of the
 * integer counts: 23·r / (7·b) >= 1.2 ⇔ 230·r >= 84·b, so a pace of exactly 1.2 (or 0.8) is never
 * pushed to the wrong side by binary rounding. The published value is then rounded to 4 decimals.
 */
export const momentum = ({ recent7d, last30d }: MomentumCounts): Momentum => {
  const baseline = last30d - recent7d;
  if (baseline < MOMENTUM_MIN_BASELINE) return { value: null, label: "unknown" };
  const value = round4((BASELINE_DAYS * recent7d) / (RECENT_DAYS * baseline));
  const pace = 10 * BASELINE_DAYS * recent7d;
  if (pace >= RISING_AT_TENTHS * RECENT_DAYS * baseline) return { value, label: "rising" };
  if (pace >= STEADY_FROM_TENTHS * RECENT_DAYS * baseline) return { value, label: "steady" };
  return { value, label: "cooling" };
};

const LABELS: readonly string[] = ["rising", "steady", "cooling", "unknown"] satisfies MomentumLabel[];

/** Narrows a stored `momentum_label` back to the contract's union (a bad value is a corrupt snapshot). */
export const asMomentumLabel = (label: string): MomentumLabel => {
  if (!LABELS.includes(label)) throw new TypeError(`unknown momentum label: ${label}`);
  return label as MomentumLabel;
};
