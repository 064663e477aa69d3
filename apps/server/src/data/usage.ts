import type { UsageStore } from "../domain/limits/usage.js";
import type { Sql } from "./sql.js";

/**
 * Monthly usage in usage_months. Capped plans (Free, Starter) are charged with one conditional
 * upsert per request, so two servers can never admit past the quota. Uncapped charges (Enterprise,
 * and Pro whose overage is billed) are buffered in memory and written every `flushMs` in one
 * statement: no write per request on the plans that send the most, at the price of losing at most
 * `flushMs` of counts if the process dies without a clean shutdown (close() flushes).
 */
export const pgUsageStore = (
  sql: Sql,
  options: { flushMs: number; onError?: (error: unknown) => void },
): UsageStore => {
  let pending = new Map<string, number>();
  const key = (org: number, month: string) => `${org}|${month}`;

  const flush = async () => {
    if (pending.size === 0) return;
    const batch = pending;
    pending = new Map();
    const entries = [...batch.entries()].map(([k, n]) => {
      const [org, month] = k.split("|");
      return { org: Number(org), month: month ?? "", n };
    });
    try {
      await sql.query(
        `INSERT INTO usage_months (organization_id, month, used)
         SELECT * FROM unnest($1::int[], $2::text[], $3::bigint[])
         ON CONFLICT (organization_id, month) DO UPDATE SET used = usage_months.used + EXCLUDED.used`,
        [entries.map((e) => e.org), entries.map((e) => e.month), entries.map((e) => e.n)],
      );
    } catch (error) {
      // Put the counts back: they are retried at the next flush rather than lost.
      for (const [k, n] of batch) pending.set(k, (pending.get(k) ?? 0) + n);
      throw error;
    }
  };

  const timer = setInterval(() => {
    flush().catch((error) => options.onError?.(error));
  }, options.flushMs);
  timer.unref();

  const stored = async (org: number, month: string) => {
    const result = await sql.query<{ used: string }>(
      "SELECT used::text FROM usage_months WHERE organization_id = $1 AND month = $2",
      [org, month],
    );
    return Number(result.rows[0]?.used ?? 0);
  };

  return {
    async consume(org, month, cost, quota) {
      if (quota === null) {
        pending.set(key(org, month), (pending.get(key(org, month)) ?? 0) + cost);
        return { admitted: true, used: null };
      }
      if (cost > quota) return { admitted: false, used: await stored(org, month) };
      const result = await sql.query<{ used: string }>(
        `INSERT INTO usage_months (organization_id, month, used) VALUES ($1, $2, $3)
         ON CONFLICT (organization_id, month) DO UPDATE SET used = usage_months.used + EXCLUDED.used
           WHERE usage_months.used + EXCLUDED.used <= $4
         RETURNING used::text`,
        [org, month, cost, quota],
      );
      const row = result.rows[0];
      if (row) return { admitted: true, used: Number(row.used) };
      return { admitted: false, used: await stored(org, month) };
    },
    async used(org, month) {
      return (await stored(org, month)) + (pending.get(key(org, month)) ?? 0);
    },
    flush,
    async close() {
      clearInterval(timer);
      await flush();
    },
  };
};
