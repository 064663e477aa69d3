/**
 * A seller's Monday report with `@gmi/sdk`: the ten most liquid titles of one console, a batch of
 * their raw demand signals, and the searches of the week that found little or nothing.
 *
 *   GMI_BASE_URL=http://localhost:3000 GMI_API_KEY=... ./scripts/pnpm --filter @gmi/sdk example
 *
 * Without GMI_BASE_URL the same script runs against the SDK's msw mocks (see
 * packages/sdk/scripts/example.ts), so it works before a server is up.
 */
import { type GmiClient, GmiError, RateLimitError } from "@gmi/sdk";

export async function marketReport(client: GmiClient, consoleSlug = "snes"): Promise<string[]> {
  const lines: string[] = [];
  const consoles = await client.consoles.list().toArray({ maxItems: 500 });
  const chosen = consoles.find((c) => c.slug === consoleSlug) ?? consoles[0];
  if (!chosen) return ["No consoles in the catalog yet."];

  const top = await client.intelligence.list({
    console_id: chosen.id,
    period: "7d",
    sort: "liquidity",
    limit: 10,
  });
  lines.push(`Ten most liquid ${chosen.name} titles, week ending ${top.meta.period_date}:`);
  for (const row of top.data) {
    const price = row.pricing.complete ?? row.pricing.loose ?? "n/a";
    lines.push(
      `  ${String(row.rank).padStart(2)}. ${row.game.name.padEnd(32)} score ${row.liquidity_score}  CIB ${price}  (${row.momentum.label})`,
    );
  }

  // Any number of ids: the SDK splits them to the plan's batch size and keeps the input order.
  const signals = await client.signals.batch(
    top.data.map((row) => row.game.id),
    { period: "7d" },
  );
  const searches = signals.data.map((item) =>
    item.status === 200 && "data" in item && item.data.found ? item.data.signals.search_count : 0,
  );
  lines.push(`Searches for those titles this week: ${searches.reduce((a, b) => a + b, 0)}`);

  lines.push("", "Unmet searches of the week (buyers looking, few results):");
  for await (const row of client.searches.unmet({ period: "7d" })) {
    const share = `${Math.round(row.results.zero_result_share * 100)}%`.padStart(4);
    lines.push(
      `  ${row.query.padEnd(40)} ${String(row.search.search_count).padStart(5)} searches, ${share} empty`,
    );
    if (lines.length >= 25) break;
  }
  return lines;
}

/** Errors say what went wrong, with the request id to quote to support. */
export const explain = (error: unknown): string => {
  if (error instanceof RateLimitError) return `Rate limited: retry in ${error.retryAfter ?? "?"} s`;
  if (error instanceof GmiError) return `${error.message}${error.requestId ? "" : " (no response)"}`;
  return String(error);
};
