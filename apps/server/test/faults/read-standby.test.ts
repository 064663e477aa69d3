import type pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { systemClock } from "../../src/clock.js";
import { ensurePlans } from "../../src/data/accounts.js";
import { type Standbys, watchStandbys } from "../../src/data/standbys.js";
import { migrate } from "../../src/db/migrate.js";
import { type Database, openDatabase } from "../../src/db/open.js";
import { SNAPSHOT_ROW_TABLES } from "../../src/db/tables/snapshot-rows.js";
import { bearer, startTestApp, type TestApp } from "../helpers/app.js";
import { BATCH_DATE, seedAnalytics } from "../helpers/batch.js";
import { loadFixtureCatalog } from "../helpers/catalog.js";
import { createTenant } from "../helpers/tenant.js";
import { canRunPostgres, type PostgresServer, startPostgres, startStandby, waitFor } from "./processes.js";

/**
 * Read standbys (DATABASE_READ_URL) against a real streaming standby: a PostgreSQL of the test's
 * own as the primary, `pg_basebackup -R` of it on a port of its own, its WAL replay paused to make
 * it lag and the server stopped to make it down. Reads are cold (no response or catalog cache), so
 * each one reaches a database; which one is told by the statements the standby ran.
 */
const NEXT_DATE = "2026-06-15";
const METRICS_TOKEN = "standby-test-metrics-token";
const NEW_GAME = 990;
/**
 * The lag bound. Wide enough that a loaded machine's delayed checks (2 cores under the whole suite)
 * do not take a current standby out of rotation in the middle of the first test.
 */
const MAX_LAG_MS = 3_000;

let primary: PostgresServer;
let standby: PostgresServer;
let db: Database;
let standbyDb: Database;
let standbys: Standbys;
let t: TestApp;
let key: string;

beforeAll(async () => {
  if (!canRunPostgres) return;
  primary = await startPostgres();
  await migrate(primary.url);
  db = await openDatabase({ databaseUrl: primary.url, dataDir: "" });
  await ensurePlans(db.pool);
  await loadFixtureCatalog(db.pool);
  await seedAnalytics(db);
  standby = await startStandby(primary);
  standbyDb = await openDatabase({ databaseUrl: standby.url, dataDir: "" });
  standbys = watchStandbys(db.pool, [{ name: "standby", sql: standbyDb.pool }], {
    clock: systemClock,
    checkMs: 100,
    maxLagMs: MAX_LAG_MS,
  });
  t = await startTestApp(db.pool, {
    standbys,
    env: { METRICS_TOKEN, RESPONSE_CACHE_TTL_MS: "0" },
  });
  // Pro: a hard-capped quota, reserved in PostgreSQL, which a standby could not take.
  key = (await createTenant(db.pool, { plan: "pro" })).key;
}, 120_000);

afterAll(async () => {
  await t?.close();
  standbys?.close();
  await standbyDb?.close();
  await db?.close();
  await standby?.close();
  await primary?.close();
}, 60_000);

const get = (url: string) => t.app.inject({ url, headers: bearer(key) });
const ok = async (url: string) => {
  const response = await get(url);
  expect(response.statusCode, `${url}: ${response.body}`).toBe(200);
  return response.json();
};
/** Statements the standby ran for reads so far. */
const onStandby = () => standbys.report("")[0]?.statements ?? 0;
const readiness = async () =>
  (await t.app.inject({ url: "/readyz" })).json() as {
    status: string;
    degraded?: string[];
    standbys: Array<{ name: string; state: string; lag_ms: number | null }>;
  };
const stateIs = (state: string) => async () => (await readiness()).standbys[0]?.state === state;
const onStandbyServer = (sql: string) => standbyDb.pool.query(sql);

/** The snapshots of `from` again as `to`'s, rows and all, in one transaction (a rollup's effect). */
const copySnapshots = async (pool: pg.Pool, from: string, to: string) => {
  const client = await pool.connect();
  try {
    await client.query("BEGIN");
    const { rows } = await client.query<{ id: number; period: string }>(
      "SELECT id, period FROM snapshots WHERE date = $1",
      [from],
    );
    for (const { id, period } of rows) {
      const made = await client.query<{ id: number }>(
        "INSERT INTO snapshots (period, date, duration_ms) VALUES ($1, $2, 0) RETURNING id",
        [period, to],
      );
      for (const table of SNAPSHOT_ROW_TABLES) {
        await client.query(
          `CREATE TEMP TABLE copied AS SELECT * FROM ${table.name} WHERE snapshot_id = ${id}`,
        );
        await client.query(`UPDATE copied SET snapshot_id = ${made.rows[0]?.id}`);
        await client.query(`INSERT INTO ${table.name} SELECT * FROM copied`);
        await client.query("DROP TABLE copied");
      }
    }
    await client.query("COMMIT");
  } finally {
    client.release();
  }
};

describe.skipIf(!canRunPostgres)("read standbys", () => {
  it("a current standby takes snapshot, catalog and history reads; keys and quotas stay on the primary", async () => {
    // Each read a statement on the standby. Asked again if a check in between found the standby
    // behind (a busy machine), which rightly sends reads to the primary for a while.
    await waitFor(async () => {
      await waitFor(stateIs("serving"));
      const before = onStandby();
      await ok("/api/v1/intelligence/101?period=7d");
      await ok("/api/v1/intelligence?period=30d&sort=demand");
      await ok("/api/v1/games/game/103");
      await ok("/api/v1/games/titles?limit=2");
      await ok("/api/v1/intelligence/101/history?period=day");
      return onStandby() >= before + 5;
    });

    const metrics = await t.app.inject({ url: "/metrics", headers: bearer(METRICS_TOKEN) });
    expect(metrics.body).toContain('gmi_db_standby_serving{standby="standby"} 1');
    expect(metrics.body).toMatch(/gmi_db_standby_lag_seconds\{standby="standby"\} \d/);
    expect(await readiness()).toMatchObject({
      status: "ready",
      standbys: [{ name: "standby", state: "serving" }],
    });
  }, 60_000);

  it("a standby behind the primary never answers with less than the primary has; lagging, it takes no reads", async () => {
    await waitFor(stateIs("serving"));
    await onStandbyServer("SELECT pg_wal_replay_pause()");
    // Read now, so the app's data fingerprint is fresh and the standby still counts as current when
    // the primary moves on: the reads below then begin on the standby, which lacks their data.
    await ok("/api/v1/intelligence/103?period=7d");
    await copySnapshots(db.pool, BATCH_DATE, NEXT_DATE);
    await db.pool.query(
      `INSERT INTO games (id, console_id, display_game_name, marketplace_game_name, title_key, enabled)
       SELECT $1, 1, 'Standby Test Game', 'standby-test-game', 'standby test game', true`,
      [NEW_GAME],
    );
    const profile = await ok(`/api/v1/intelligence/101?period=7d&date=${NEXT_DATE}`);
    expect(profile.meta.period_date).toBe(NEXT_DATE);
    const list = await ok(`/api/v1/intelligence?period=day&date=${NEXT_DATE}`);
    expect(list.meta.period_date).toBe(NEXT_DATE);
    expect(list.data.length).toBeGreaterThan(0);
    expect((await ok(`/api/v1/games/game/${NEW_GAME}`)).data.id).toBe(NEW_GAME);

    // Past the lag bound the standby is out of rotation: every read on the primary.
    await waitFor(stateIs("lagging"));
    const readyWhileLagging = await readiness();
    expect(readyWhileLagging.status).toBe("degraded");
    expect(readyWhileLagging.degraded).toContain("standby standby");
    expect(readyWhileLagging.standbys[0]?.lag_ms).toBeGreaterThan(MAX_LAG_MS);
    const before = onStandby();
    await ok(`/api/v1/intelligence/103?period=30d&date=${BATCH_DATE}`);
    await ok(`/api/v1/intelligence?period=7d&date=${NEXT_DATE}`);
    await ok("/api/v1/games/game/101");
    expect(onStandby()).toBe(before);

    // Replay resumed: back in rotation, with the new date.
    await onStandbyServer("SELECT pg_wal_replay_resume()");
    await waitFor(stateIs("serving"));
    const resumed = onStandby();
    expect((await ok(`/api/v1/intelligence/105?period=day&date=${NEXT_DATE}`)).meta.period_date).toBe(
      NEXT_DATE,
    );
    expect(onStandby()).toBeGreaterThan(resumed);
  }, 60_000);

  it("a standby that is down sends its reads to the primary, and takes them back once it is up", async () => {
    await waitFor(stateIs("serving"));
    await standby.stop("immediate");
    for (const url of ["/api/v1/intelligence/101?period=30d", "/api/v1/games/game/105", "/api/v1/consoles"])
      await ok(url);
    await waitFor(stateIs("down"));
    const down = await readiness();
    expect(down.status).toBe("degraded");
    expect(down.degraded).toContain("standby standby");

    await standby.start();
    await waitFor(stateIs("serving"));
    const before = onStandby();
    await ok("/api/v1/intelligence/103?period=day");
    expect(onStandby()).toBeGreaterThan(before);
  }, 60_000);
});
