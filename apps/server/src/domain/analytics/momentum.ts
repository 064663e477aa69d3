import type { Momentum } from "@gmi/contract";
import { round4 } from "./rounding.js";

export type MomentumLabel = Momentum["label"];

/** Event counts of the two momentum windows, both ending on the period date D. */
export type MomentumCounts = {
  /** Events in D-6..D. */
  recent7d: number;
  /** Events in D-29..D (the 7 recent days included). */
  baseline30d: number;
};

/** Label thresholds in tenths (1.2 and 0.8), so the comparison below stays in integers. */
const RISING_AT_TENTHS = 12;
const STEADY_FROM_TENTHS = 8;

/**
 * (recent7d / 7) / (baseline30d / 30). The label is decided on the exact ratio of the integer counts,
 * not on the float: 30·r / (7·b) >= 1.2 ⇔ 300·r >= 84·b, so a pace of exactly 1.2 (or 0.8) is never
 * pushed to the wrong side by binary rounding. The published value is then rounded to 4 decimals.
 */
export const momentum = ({ recent7d, baseline30d }: MomentumCounts): Momentum => {
  if (baseline30d <= 0) return { value: null, label: "unknown" };
  const value = round4((30 * recent7d) / (7 * baseline30d));
  const pace = 10 * 30 * recent7d;
  if (pace >= RISING_AT_TENTHS * 7 * baseline30d) return { value, label: "rising" };
  if (pace >= STEADY_FROM_TENTHS * 7 * baseline30d) return { value, label: "steady" };
  return { value, label: "cooling" };
};

const LABELS: readonly string[] = ["rising", "steady", "cooling", "unknown"] satisfies MomentumLabel[];

/** Narrows a stored `momentum_label` back to the contract's union (a bad value is a corrupt snapshot). */
export const asMomentumLabel = (label: string): MomentumLabel => {
  if (!LABELS.includes(label)) throw new TypeError(`unknown momentum label: ${label}`);
  return label as MomentumLabel;
};
