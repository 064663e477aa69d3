/** Weights of the three demand signals in `demand.index`; they sum to 1. */
export type DemandWeights = { intent: number; reach: number; watch: number };

/** Everything configurable in the scoring, resolved once from the serving configuration. */
export type ScoringConfig = {
  demandWeights: DemandWeights;
  /** Weight of `demand.index` in `liquidity_score`; price accessibility gets `1 - liquidityWeight`. */
  liquidityWeight: number;
  /** Queries below this many searches in the period are left out of the `unmet` ranking. */
  unmetMinSearches: number;
};

export const DEFAULT_DEMAND_WEIGHTS: DemandWeights = { intent: 0.5, reach: 0.3, watch: 0.2 };
export const DEFAULT_LIQUIDITY_WEIGHT = 0.7;
export const DEFAULT_UNMET_MIN_SEARCHES = 5;

export const DEFAULT_SCORING: ScoringConfig = {
  demandWeights: DEFAULT_DEMAND_WEIGHTS,
  liquidityWeight: DEFAULT_LIQUIDITY_WEIGHT,
  unmetMinSearches: DEFAULT_UNMET_MIN_SEARCHES,
};

export type Parsed<T> = { ok: true; value: T } | { ok: false; message: string };

/** Written weights like "0.5,0.3,0.2" carry decimals; a sum within this of 1 is 1. */
const SUM_TOLERANCE = 1e-6;

const parseWeight = (text: string): number | null => {
  const trimmed = text.trim();
  if (!/^(?:\d+(?:\.\d*)?|\.\d+)$/.test(trimmed)) return null;
  const value = Number(trimmed);
  return value >= 0 && value <= 1 ? value : null;
};

/** Parses "intent,reach,watch" (e.g. "0.5,0.3,0.2"): three numbers in 0..1 that sum to 1. */
export const parseDemandWeights = (text: string): Parsed<DemandWeights> => {
  const parts = text.split(",");
  if (parts.length !== 3) {
    return {
      ok: false,
      message: `expected three comma-separated weights (intent,reach,watch), got "${text}"`,
    };
  }
  const values = parts.map(parseWeight);
  const [intent, reach, watch] = values;
  if (intent == null || reach == null || watch == null) {
    return { ok: false, message: `each weight must be a decimal number from 0 to 1, got "${text}"` };
  }
  const sum = intent + reach + watch;
  if (Math.abs(sum - 1) > SUM_TOLERANCE) {
    return { ok: false, message: `weights must sum to 1, got ${sum} from "${text}"` };
  }
  return { ok: true, value: { intent, reach, watch } };
};

/** Parses the demand weight of the liquidity score (e.g. "0.7"): one number in 0..1. */
export const parseLiquidityWeight = (text: string): Parsed<number> => {
  const value = parseWeight(text);
  return value == null
    ? { ok: false, message: `liquidity weight must be a decimal number from 0 to 1, got "${text}"` }
    : { ok: true, value };
};

/** Parses the unmet minimum search count (e.g. "5"): an integer of at least 1. */
export const parseUnmetMinSearches = (text: string): Parsed<number> => {
  const trimmed = text.trim();
  const value = Number(trimmed);
  return /^\d+$/.test(trimmed) && value >= 1 && Number.isSafeInteger(value)
    ? { ok: true, value }
    : { ok: false, message: `unmet minimum must be an integer of at least 1, got "${text}"` };
};
