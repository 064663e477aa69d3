import { GmiClient, GmiError } from "@gmi/sdk";

/**
 * The code under test: what a "top sellers" widget shows, as plain data a component renders. It is
 * the kind of function a frontend team writes over the SDK, and the part worth testing: every
 * answer the API can give (rows, a spent minute window, a spent monthly quota, an outage) becomes
 * something the user can read.
 */
export type TopSellersView =
  | {
      state: "ready";
      date: string;
      rows: Array<{ rank: number; name: string; console: string; score: number }>;
    }
  | { state: "rate-limited"; retryInSeconds: number }
  | { state: "quota-exceeded"; resetsInSeconds: number | undefined }
  | { state: "signed-out" }
  | { state: "unavailable"; requestId: string | undefined };

export const createClient = (baseUrl: string, options: { maxRetries?: number } = {}) =>
  new GmiClient({
    apiKey: "gmi_live_example",
    baseUrl,
    maxRetries: options.maxRetries ?? 2,
    // A widget does not sit out a long rate limit: it shows the countdown instead (`rate-limited`).
    maxRetryAfterMs: 2_000,
    // Short backoff between retried 5xx answers, so a burst is ridden out quickly.
    backoff: { baseDelayMs: 50, maxDelayMs: 200 },
  });

export const loadTopSellers = async (
  client: GmiClient,
  query: { consoleId?: number; limit?: number } = {},
): Promise<TopSellersView> => {
  try {
    const page = await client.intelligence.list({
      sort: "liquidity",
      period: "7d",
      limit: query.limit ?? 10,
      ...(query.consoleId === undefined ? {} : { console_id: query.consoleId }),
    });
    return {
      state: "ready",
      date: page.meta.period_date,
      rows: page.data.map((row) => ({
        rank: row.rank,
        name: row.game.name,
        console: row.game.console_name,
        score: row.liquidity_score,
      })),
    };
  } catch (error) {
    if (!(error instanceof GmiError)) throw error;
    if (error.status === 429) return { state: "rate-limited", retryInSeconds: error.retryAfter ?? 1 };
    if (error.status === 402) return { state: "quota-exceeded", resetsInSeconds: error.retryAfter };
    if (error.status === 401) return { state: "signed-out" };
    return { state: "unavailable", requestId: error.requestId };
  }
};
