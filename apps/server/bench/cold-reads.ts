/**
 * `pnpm bench:cold`: where a cold read's time goes, route by route. The app (buildApp, production
 * settings, every cache on) in this process over a copy of the wide benches' database
 * (bench/wide-database.ts), each statement it sends to PostgreSQL recorded. For each route of the
 * wide mix, `BENCH_COLD_URLS` (default 100) URLs never asked before are asked one after another, and
 * per request it prints: the statements sent (by kind: the tables read), the Node CPU time, and the
 * time spent waiting on PostgreSQL. Then, with BENCH_EXPLAIN=1, `EXPLAIN (ANALYZE, BUFFERS)` of one
 * call of each kind of statement. Single requests in a row, no concurrency: the cost of a read, not
 * a throughput (that is bench:wide's).
 *
 * Env: BENCH_DATABASE_URL or TEST_DATABASE_URL (admin URL), BENCH_COLD_URLS, BENCH_EXPLAIN=1,
 * BENCH_FRESH=1 (seed the template again).
 */
import { randomBytes } from "node:crypto";
import type pg from "pg";
import { buildApp, createLogger } from "../src/app.js";
import { loadConfig } from "../src/config.js";
import type { Sql } from "../src/data/sql.js";
import { openDatabase } from "../src/db/open.js";
import { pgUsageStore } from "../src/metering/postgres-quota.js";
import { memoryLimiterStore } from "../src/metering/window-store.js";
import { adminServer, benchDatabase, createKeys, pgClient, readCatalog } from "./wide-database.js";
import { wideUrls } from "./wide-mix.js";

const env = process.env;
const perRoute = Number(env.BENCH_COLD_URLS ?? 100);

/** A statement as sent: its text, values and how long PostgreSQL took to answer it (ms). */
type Sent = { text: string; values: unknown[]; ms: number };

/** A kind of statement, named by the tables it reads (and its first condition), e.g. `games+consoles (g.id = $1)`. */
const kindOf = (text: string): string => {
  const tables = [...text.matchAll(/\b(?:FROM|JOIN)\s+([a-z_]+)/gi)].map((m) => m[1]);
  const where = /\bWHERE\s+([^\s]+\s*(?:=|>=|<=|IN|=\s*ANY)?)/i.exec(text)?.[1] ?? "";
  return `${[...new Set(tables)].join("+") || text.slice(0, 40)}${where ? ` (${where.trim()})` : ""}`;
};

/** A statement that only reads: a SELECT, or a WITH whose parts write nothing (the reads of one statement). */
const isRead = (text: string) =>
  /^\s*(SELECT|WITH)\b/i.test(text) && !/\b(INSERT|UPDATE|DELETE)\b/i.test(text);

/** `sql` that records what it sends into `log` while `log.on`. */
const recording = (sql: pg.Pool) => {
  const log = { on: false, sent: [] as Sent[] };
  const query = async (config: string | pg.QueryConfig, values?: unknown[]) => {
    const text = typeof config === "string" ? config : config.text;
    const args = (typeof config === "string" ? values : config.values) ?? [];
    const started = performance.now();
    try {
      return await sql.query(config as pg.QueryConfig, values as unknown[]);
    } finally {
      if (log.on) log.sent.push({ text, values: args, ms: performance.now() - started });
    }
  };
  return { sql: { query } as unknown as Sql, log };
};

/** Which route a wide-mix URL asks. */
const routeOf = (url: string): string =>
  url
    .split("?")[0]
    ?.replace(/\/\d+(?=\/|$)/g, "/:id")
    .replace(/\/(slug|title)\/[^/]+$/, "/$1/:text") ?? url;

const main = async () => {
  const adminHost = await adminServer(env, false);
  const admin = await pgClient(adminHost.url);
  const database = await benchDatabase(admin, adminHost.url, Boolean(env.BENCH_FRESH));
  const db = await openDatabase({ databaseUrl: database.url, dataDir: "" });
  try {
    const keys = await createKeys(db.pool);
    const key = keys[keys.length - 1] ?? "";
    const catalog = await readCatalog(db.pool);
    const byRoute = new Map<string, string[]>();
    for (const url of wideUrls(catalog, 30_000, 1)) {
      const list = byRoute.get(routeOf(url)) ?? [];
      if (list.length < perRoute) list.push(url);
      byRoute.set(routeOf(url), list);
    }

    const { sql, log } = recording(db.pool);
    const config = loadConfig({
      NODE_ENV: "production",
      CURSOR_SECRET: randomBytes(32).toString("hex"),
      LOG_LEVEL: "silent",
    });
    const usage = pgUsageStore(sql, { flushMs: config.usageFlushMs });
    const app = await buildApp({
      config,
      sql,
      logger: createLogger(config),
      limiter: memoryLimiterStore(),
      usage,
    });
    await app.ready();
    // The key, the data fingerprint and the snapshots' first reads, off the record.
    await app.inject({ url: "/api/v1/intelligence?period=7d", headers: { authorization: `Bearer ${key}` } });

    const samples = new Map<string, Sent>();
    console.log(
      `\nbench:cold: ${perRoute} cold URLs per route, one request at a time, database ${database.name}\n`,
    );
    for (const [route, urls] of byRoute) {
      const kinds = new Map<string, number>();
      let statements = 0;
      let waitMs = 0;
      let cpuUs = 0;
      for (const url of urls) {
        log.sent = [];
        log.on = true;
        const cpu = process.cpuUsage();
        const response = await app.inject({ url, headers: { authorization: `Bearer ${key}` } });
        const used = process.cpuUsage(cpu);
        log.on = false;
        if (response.statusCode >= 500) throw new Error(`${url}: ${response.statusCode} ${response.body}`);
        cpuUs += used.user + used.system;
        for (const sent of log.sent) {
          const kind = kindOf(sent.text);
          kinds.set(kind, (kinds.get(kind) ?? 0) + 1);
          // EXPLAIN ANALYZE runs its statement: reads only (the usage flush writes).
          if (isRead(sent.text) && !samples.has(kind)) samples.set(kind, sent);
          statements++;
          waitMs += sent.ms;
        }
      }
      const n = Math.max(1, urls.length);
      console.log(
        `${route.padEnd(42)} ${(statements / n).toFixed(2)} statements, ${(cpuUs / n).toFixed(0)} us CPU, ` +
          `${(waitMs / n).toFixed(2)} ms waiting on PostgreSQL (${urls.length} requests)`,
      );
      for (const [kind, count] of [...kinds].sort((a, b) => b[1] - a[1]))
        console.log(`    ${(count / n).toFixed(2)}  ${kind}`);
    }
    if (env.BENCH_EXPLAIN) {
      console.log("\nEXPLAIN (ANALYZE, BUFFERS) of one call of each kind:");
      for (const [kind, sent] of samples) {
        const { rows } = await db.pool.query<{ "QUERY PLAN": string }>(
          `EXPLAIN (ANALYZE, BUFFERS) ${sent.text}`,
          sent.values,
        );
        console.log(`\n-- ${kind}\n${rows.map((r) => `   ${r["QUERY PLAN"]}`).join("\n")}`);
      }
    }
    await app.close();
    await usage.close();
  } finally {
    await db.close();
    await database.drop();
    await admin.end();
    await adminHost.close();
  }
};

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
