import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEFAULT_SCORING } from "../src/domain/analytics/weights.js";
import { rollupDate, rollupDates } from "../src/rollup/rollup-dates.js";
import { createTestDatabase, type TestDatabase } from "./helpers/database.js";

/**
 * A hand-built marketplace whose figures are worked out by hand below. D = 2026-11-20.
 * Games: 101 (SNES, complete 100.00), 102 (SNES, complete 50.00), 103 (N64, no price),
 * 104 (SNES, disabled).
 */
const D = "2026-11-20";
let test: TestDatabase;

const at = (day: string, time = "12:00:00") => `${day}T${time}Z`;
const redirect = (gameId: number, user: string, day: string, condition: string | null = null) =>
  test.db.pool.query(
    "INSERT INTO redirect_events (game_id, user_id, occurred_at, day, condition, device) VALUES ($1, $2, $3, $4, $5, 'mobile')",
    [gameId, user, at(day), day, condition],
  );
const watch = (
  gameId: number,
  user: string,
  created: string,
  removed: string | null,
  condition: string | null = null,
) =>
  test.db.pool.query(
    "INSERT INTO watch_events (game_id, user_id, created_at, removed_at, condition) VALUES ($1, $2, $3, $4, $5)",
    [gameId, user, created, removed, condition],
  );
const search = (
  query: string,
  user: string,
  day: string,
  o: { results?: number; device?: string; gameId?: number; consoleId?: number; condition?: string } = {},
) =>
  test.db.pool.query(
    `INSERT INTO search_events (raw_query, query, user_id, occurred_at, day, source, device, result_count, condition, game_id, console_id)
     VALUES ($1, $1, $2, $3, $4, 'pricing', $5, $6, $7, $8, $9)`,
    [
      query,
      user,
      at(day),
      day,
      o.device ?? "desktop",
      o.results ?? 10,
      o.condition ?? null,
      o.gameId ?? null,
      o.consoleId ?? null,
    ],
  );

const liquidity = async (period: string, scope: number) => {
  const { rows } = await test.db.pool.query(
    `SELECT r.* FROM liquidity_snapshot_rows r JOIN snapshots s ON s.id = r.snapshot_id
     WHERE s.period = $1 AND s.date = $2 AND r.scope_console_id = $3 ORDER BY r.game_id`,
    [period, D, scope],
  );
  return Object.fromEntries(rows.map(({ snapshot_id: _id, ...r }) => [r.game_id, r]));
};

beforeAll(async () => {
  test = await createTestDatabase();
  const q = (sql: string) => test.db.pool.query(sql);
  await q(
    "INSERT INTO consoles (id, name, slug) VALUES (1, 'Super Nintendo', 'snes'), (2, 'Nintendo 64', 'n64')",
  );
  await q(`INSERT INTO games (id, console_id, display_game_name, title_key, marketplace_game_name, enabled, price_complete) VALUES
    (101, 1, 'Chrono Trigger', 'chrono trigger', 'chrono-trigger', true, 100.00),
    (102, 1, 'EarthBound', 'earthbound', 'earthbound', true, 50.00),
    (103, 2, 'Mario Kart 64', 'mario kart 64', 'mario-kart-64', true, NULL),
    (104, 1, 'Withdrawn', 'withdrawn', 'withdrawn', false, 10.00)`);
  // 101: u1 on D and D-1, u2 on D-3, u3 on D-20 -> day 1/1, 7d 3/2, 30d 4/3 (redirects/distinct users).
  await redirect(101, "u1", D, "cib");
  await redirect(101, "u1", "2026-11-19", "cib");
  await redirect(101, "u2", "2026-11-17", "loose");
  await redirect(101, "u3", "2026-10-31");
  await redirect(102, "u1", "2026-11-10"); // only in 30d
  await redirect(103, "u5", D);
  await redirect(103, "u6", D);
  await redirect(104, "u9", D); // disabled: in no population
  // 101: removed exactly at the 7d window's first instant: active in 7d and 30d, not on the day.
  await watch(101, "w1", "2026-10-01T00:00:00Z", "2026-11-14T00:00:00Z", "cib");
  // 102: live since D-2: active in every window.
  await watch(102, "w2", "2026-11-18T08:00:00Z", null);
  // 101: created the day after D: in no window.
  await watch(101, "w3", "2026-11-21T00:00:00Z", null);
  // Searches: "chrono trigger" in scope SNES via its game; "zelda" in N64 by its console_id.
  await search("chrono trigger", "u1", D, { gameId: 101, condition: "cib", device: "mobile" });
  await search("chrono trigger", "u1", "2026-11-18", { gameId: 101, condition: "cib", results: 0 });
  await search("chrono trigger", "u2", "2026-11-16", { gameId: 101, condition: "loose" });
  await search("zelda", "u4", D, { consoleId: 2, results: 0 });
  await rollupDate(test.db, D, DEFAULT_SCORING);
});

afterAll(async () => {
  await test?.drop();
});

describe("rollup of one date", () => {
  it("counts redirects, distinct users over the window and active watch alerts per period", async () => {
    const day = await liquidity("day", 0);
    const week = await liquidity("7d", 0);
    const month = await liquidity("30d", 0);
    expect(Object.keys(week).map(Number)).toEqual([101, 102, 103]);
    expect([day[101].redirects, day[101].distinct_users, day[101].watch_count]).toEqual([1, 1, 0]);
    expect([week[101].redirects, week[101].distinct_users, week[101].watch_count]).toEqual([3, 2, 1]);
    expect([month[101].redirects, month[101].distinct_users, month[101].watch_count]).toEqual([4, 3, 1]);
    expect([week[102].redirects, week[102].watch_count, month[102].redirects]).toEqual([0, 1, 1]);
    expect([day[103].redirects, day[103].distinct_users]).toEqual([2, 2]);
    expect(week[101].search_count).toBe(3);
  });

  it("scores against the scope's maxima, with 0.5 accessibility for a game without price", async () => {
    const week = await liquidity("7d", 0);
    // max r=3, u=2, w=1; 101: index 1, access 1-100/100 = 0 -> 70.
    expect(week[101].demand_index).toBe(1);
    expect(week[101].price_accessibility).toBe(0);
    expect(week[101].liquidity_score).toBe(70);
    // 103: 0.5*2/3 + 0.3*2/2 = 0.6333; no price -> 0.5; 100*(0.7*0.6333 + 0.3*0.5) = 59.33 -> 59.
    expect(week[103].demand_index).toBeCloseTo(0.6333, 4);
    expect(week[103].price_accessibility).toBe(0.5);
    expect(week[103].liquidity_score).toBe(59);
    // 102: watch only: 0.2; access 1-50/100 = 0.5 -> 100*(0.14+0.15) = 29; no redirect -> no rank.
    expect(week[102].liquidity_score).toBe(29);
    expect([week[101].rank_liquidity, week[103].rank_liquidity, week[102].rank_liquidity]).toEqual([
      1,
      2,
      null,
    ]);
    // momentum of 101: 3 redirects in the recent week, 4 in the 30 days: 30·3 / (7·4) = 3.2143.
    expect(week[101].momentum_value).toBe(3.2143);
    expect(week[101].momentum_label).toBe("rising");
    // 102: no redirect this week, 1 in the 30 days: 0, cooling.
    expect([week[102].momentum_value, week[102].momentum_label]).toEqual([0, "cooling"]);
  });

  it("normalizes per console scope", async () => {
    const snes = await liquidity("7d", 1);
    expect(Object.keys(snes).map(Number)).toEqual([101, 102]);
    const n64 = await liquidity("7d", 2);
    // 103 alone in its scope: it is its own maximum.
    expect(n64[103].demand_index).toBeCloseTo(0.8, 4);
    expect(n64[103].rank_liquidity).toBe(1);
  });

  it("aggregates searches per scope and the condition mix", async () => {
    const { rows } = await test.db.pool.query(
      `SELECT r.* FROM search_snapshot_rows r JOIN snapshots s ON s.id = r.snapshot_id
       WHERE s.period = '7d' AND s.date = $1 ORDER BY r.scope_console_id, r.query`,
      [D],
    );
    const key = (r: { scope_console_id: number; query: string }) => `${r.scope_console_id}:${r.query}`;
    expect(rows.map(key)).toEqual(["0:chrono trigger", "0:zelda", "1:chrono trigger", "2:zelda"]);
    const chrono = rows[0];
    expect([chrono.search_count, chrono.distinct_users, chrono.zero_result_count]).toEqual([3, 2, 1]);
    expect(chrono.mobile_share).toBeCloseTo(0.3333, 4);
    expect(chrono.demand_score).toBe(100);
    const { rows: conditions } = await test.db.pool.query(
      `SELECT r.* FROM condition_snapshot_rows r JOIN snapshots s ON s.id = r.snapshot_id
       WHERE s.period = '7d' AND s.date = $1 AND r.game_id = 0 ORDER BY r.rank`,
      [D],
    );
    expect(conditions.map((c) => [c.condition, c.search_count])).toEqual([
      ["cib", 2],
      ["loose", 1],
      ["new", 0],
      ["any", 0],
    ]);
    expect(conditions.reduce((sum, c) => sum + c.condition_share, 0)).toBeCloseTo(1, 6);
  });

  it("is idempotent and incremental", async () => {
    const before = await liquidity("30d", 0);
    const again = (force: boolean) =>
      rollupDates(test.db, { end: D, days: 1, force, today: D }, DEFAULT_SCORING);
    expect((await again(false)).computed).toEqual([]);
    expect((await again(true)).computed).toEqual([D]);
    expect(await liquidity("30d", 0)).toEqual(before);
    const { rows } = await test.db.pool.query("SELECT count(*)::int AS n FROM snapshots WHERE date = $1", [
      D,
    ]);
    expect(rows[0].n).toBe(3);
  });

  it("leaves the previous snapshots whole when it fails part-way, and gives its connections back", async () => {
    const q = (sql: string, params: unknown[] = []) => test.db.pool.query(sql, params);
    const snapshotsOfD = async () =>
      (
        await q(
          `SELECT s.period, s.id,
             (SELECT count(*) FROM liquidity_snapshot_rows r WHERE r.snapshot_id = s.id)::int AS liquidity,
             (SELECT count(*) FROM search_snapshot_rows r WHERE r.snapshot_id = s.id)::int AS searches,
             (SELECT count(*) FROM condition_snapshot_rows r WHERE r.snapshot_id = s.id)::int AS conditions
           FROM snapshots s WHERE s.date = $1 ORDER BY s.period`,
          [D],
        )
      ).rows;
    const before = await snapshotsOfD();
    expect(before.map((s) => s.searches > 0 && s.liquidity > 0)).toEqual([true, true, true]);
    // Every search row is refused: each period's transaction fails after its other rows went in.
    await q(
      "CREATE FUNCTION refuse_search_row() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'refused'; END $$",
    );
    await q(
      "CREATE TRIGGER refuse BEFORE INSERT ON search_snapshot_rows FOR EACH ROW EXECUTE FUNCTION refuse_search_row()",
    );
    try {
      await expect(rollupDate(test.db, D, DEFAULT_SCORING)).rejects.toThrow(/refused/);
    } finally {
      await q("DROP TRIGGER refuse ON search_snapshot_rows");
      await q("DROP FUNCTION refuse_search_row()");
    }
    expect(await snapshotsOfD()).toEqual(before);
    expect(test.db.pool.idleCount).toBe(test.db.pool.totalCount);
  });
});
