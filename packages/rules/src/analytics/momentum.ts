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

/** The recent window, D-6..D, and the baseline, D-29..D: the 7d and 30d periods' days. */
const RECENT_DAYS = PERIOD_DAYS["7d"];
const BASELINE_DAYS = PERIOD_DAYS["30d"];

/** Label thresholds in hundredths (1.2 and 0.8), so the comparison below stays in integers. */
const RISING_AT = 120;
const STEADY_FROM = 80;

/**
 * The interface's definition: the trailing 7-day daily pace divided by the 30-day baseline,
 * (n7 / 7) ÷ (n30 / 30) = 30·n7 / (7·n30), the baseline being the whole 30 days ending on D (the
 * recent week included). No event in those 30 days means no baseline: `unknown`, value null. The
 * label is decided on the exact ratio of the integer counts: 30·n7 / (7·n30) >= 1.2 ⇔
 * 300·n7 >= 84·n30, so a pace of exactly 1.2 (or 0.8) is never pushed to the wrong side by binary
 * rounding. The published value is then rounded to 4 decimals.
 */
export const momentum = ({ recent7d, last30d }: MomentumCounts): Momentum => {
  if (last30d === 0) return { value: null, label: "unknown" };
  const value = round4((BASELINE_DAYS * recent7d) / (RECENT_DAYS * last30d));
  const pace = 100 * BASELINE_DAYS * recent7d;
  if (pace >= RISING_AT * RECENT_DAYS * last30d) return { value, label: "rising" };
  if (pace >= STEADY_FROM * RECENT_DAYS * last30d) return { value, label: "steady" };
  return { value, label: "cooling" };
};

const LABELS: readonly string[] = ["rising", "steady", "cooling", "unknown"] satisfies MomentumLabel[];

/** Narrows a stored `momentum_label` back to the contract's union (a bad value is a corrupt snapshot). */
export const asMomentumLabel = (label: string): MomentumLabel => {
  if (!LABELS.includes(label)) throw new TypeError(`unknown momentum label: ${label}`);
  return label as MomentumLabel;
};
