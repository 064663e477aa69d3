import type { GmiClient, Period } from "@gmi/sdk";

/**
 * Where a liquidity score stands among the scores of its scope and period, for its colour: the
 * score is relative (the spec calls it a ranking signal), so 35 can be the 13th best of 445 games.
 * A fixed threshold painted such a game red, as one to avoid; the bands below follow the ranking.
 */
export type ScoreScale = {
  /** Games on the leaderboard (with redirects) in the scope and period. */
  total: number;
  /** The lowest score in the top 10 %, and in the top half. */
  top10: number;
  topHalf: number;
};

export type ScoreBand = "top10" | "topHalf" | "lowerHalf";

export const BAND_LABELS: Record<ScoreBand, string> = {
  top10: "top 10 %",
  topHalf: "top half",
  lowerHalf: "lower half",
};

export const bandOf = (scale: ScoreScale, score: number): ScoreBand =>
  score >= scale.top10 ? "top10" : score >= scale.topHalf ? "topHalf" : "lowerHalf";

/** "top 3 %": a rank as the share of the leaderboard at or above it, never "top 0 %". */
export const topPercent = (rank: number, total: number): string =>
  `top ${Math.max(1, Math.ceil((100 * rank) / total))} %`;

/** The score of the row at `rank` on the liquidity leaderboard: a page of one row. */
const scoreAt = async (client: GmiClient, query: ScaleQuery, rank: number) =>
  (await client.intelligence.list({ ...query, sort: "liquidity", limit: 1, page: rank })).data[0]
    ?.liquidity_score ?? 0;

type ScaleQuery = { period: Period; console_id?: number | undefined };

/**
 * Three one-row reads: the total, then the rows at the 10 % and 50 % marks. Kept per client,
 * period and scope for a few minutes (new snapshots come once a day), so paging and moving between
 * games costs nothing more.
 */
const KEEP_MS = 5 * 60_000;
const kept = new WeakMap<GmiClient, Map<string, { at: number; scale: Promise<ScoreScale | null> }>>();

export const loadScoreScale = (client: GmiClient, query: ScaleQuery): Promise<ScoreScale | null> => {
  const byQuery = kept.get(client) ?? new Map();
  kept.set(client, byQuery);
  const key = `${query.period}/${query.console_id ?? "all"}`;
  const hit = byQuery.get(key);
  if (hit && Date.now() - hit.at < KEEP_MS) return hit.scale;
  const scale = (async () => {
    const first = await client.intelligence.list({ ...query, sort: "liquidity", limit: 1 });
    const total = first.meta.pagination.mode === "page" ? first.meta.pagination.total : 0;
    if (total === 0) return null;
    const [top10, topHalf] = await Promise.all([
      scoreAt(client, query, Math.ceil(total * 0.1)),
      scoreAt(client, query, Math.ceil(total * 0.5)),
    ]);
    return { total, top10, topHalf };
  })();
  // A failed read is not kept: the next page asks again.
  scale.catch(() => {
    if (byQuery.get(key)?.scale === scale) byQuery.delete(key);
  });
  byQuery.set(key, { at: Date.now(), scale });
  return scale;
};
