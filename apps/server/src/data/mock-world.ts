import type { Period } from "@gmi/contract";
import type {
  ConditionSnapshotRow as RulesConditionRow,
  LiquiditySnapshotRow as RulesLiquidityRow,
  SearchSnapshotRow as RulesSearchRow,
} from "@gmi/rules/analytics/rows";
import {
  MOCK_WORLD_VERSION,
  type MockPriceObservation,
  type MockSnapshot,
  type MockWorld,
} from "@gmi/rules/world/types";
import type {
  ConditionSnapshotRow,
  LiquiditySnapshotRow,
  SearchSnapshotRow,
} from "../db/tables/snapshot-rows.js";
import {
  CONDITION_SNAPSHOT_ROWS,
  LIQUIDITY_SNAPSHOT_ROWS,
  SEARCH_SNAPSHOT_ROWS,
} from "../db/tables/snapshot-rows.js";
import { columnsExcept, selectFields } from "../db/tables/table.js";
import type {
  StoredConditionRow,
  StoredLiquidityRow,
  StoredSearchRow,
} from "../domain/analytics/to-contract.js";
import type { ScoringConfig } from "../domain/analytics/weights.js";
import type { IsoDay } from "../domain/analytics/windows.js";
import type { ConsoleRow, GameRow } from "../domain/catalog/records.js";
import { toConsoleRecord, toGameRecord } from "../domain/catalog/records.js";
import type { Sql } from "./sql.js";

/** The rules' row types restate the table declarations' (the rules cannot import them): they must agree. */
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const rowTypesAgree: [
  Same<LiquiditySnapshotRow, RulesLiquidityRow>,
  Same<SearchSnapshotRow, RulesSearchRow>,
  Same<ConditionSnapshotRow, RulesConditionRow>,
] = [true, true, true];
void rowTypesAgree;

const rowColumns = <T extends Parameters<typeof selectFields>[0]>(table: T) =>
  selectFields(table, columnsExcept(table, ["snapshot_id"] as never[]), "r");

type SnapshotHead = { id: number; period: Period; date: IsoDay; dayHasEvents: boolean };

/** The snapshots to export: those dated `dates`, of every period. */
const readSnapshots = async (sql: Sql, dates: readonly IsoDay[]): Promise<SnapshotHead[]> => {
  const { rows } = await sql.query<SnapshotHead>(
    `SELECT id, period, to_char(date, 'YYYY-MM-DD') AS date, day_has_events AS "dayHasEvents"
     FROM snapshots WHERE date = ANY($1::date[]) ORDER BY period, date`,
    [dates],
  );
  return rows;
};

const rowsOf = async <Row>(sql: Sql, table: { name: string }, columns: string, ids: number[]) => {
  const { rows } = await sql.query<Row & { snapshotId: number }>(
    `SELECT r.snapshot_id AS "snapshotId", ${columns} FROM ${table.name} r WHERE r.snapshot_id = ANY($1::int[])`,
    [ids],
  );
  return rows;
};

const bySnapshot = <Row extends { snapshotId: number }>(rows: Row[]) => {
  const out = new Map<number, Omit<Row, "snapshotId">[]>();
  for (const { snapshotId, ...row } of rows) {
    const list = out.get(snapshotId) ?? [];
    if (list.length === 0) out.set(snapshotId, list);
    list.push(row);
  }
  return out;
};

/** The enabled catalog as the catalog reads serve it, and every price observation of its games. */
const readCatalog = async (sql: Sql): Promise<MockWorld["catalog"]> => {
  const [consoles, games, observations] = await Promise.all([
    sql.query<ConsoleRow>(
      `SELECT c.id, c.name, c.slug,
         (SELECT count(*) FROM games g WHERE g.enabled AND g.console_id = c.id)::int AS game_count
       FROM consoles c ORDER BY c.id`,
    ),
    sql.query<GameRow>(
      `SELECT g.id, g.display_game_name, g.marketplace_game_name, g.console_id,
         c.name AS console_name, c.slug AS console_slug,
         g.price_loose::text AS price_loose, g.price_complete::text AS price_complete, g.price_new::text AS price_new
       FROM games g JOIN consoles c ON c.id = g.console_id WHERE g.enabled ORDER BY g.id`,
    ),
    sql.query<{
      gameId: number;
      day: IsoDay;
      loose: string | null;
      complete: string | null;
      new: string | null;
    }>(
      `SELECT p.game_id AS "gameId", to_char(p.observed_at AT TIME ZONE 'UTC', 'YYYY-MM-DD') AS day,
         p.price_loose::text AS loose, p.price_complete::text AS complete, p.price_new::text AS new
       FROM price_observations p JOIN games g ON g.id = p.game_id AND g.enabled
       ORDER BY p.game_id, p.observed_at`,
    ),
  ]);
  const prices: Record<string, MockPriceObservation[]> = {};
  for (const { gameId, day, ...observed } of observations.rows) {
    const list = prices[String(gameId)] ?? [];
    if (list.length === 0) prices[String(gameId)] = list;
    list.push({ day, prices: observed });
  }
  return { consoles: consoles.rows.map(toConsoleRecord), games: games.rows.map(toGameRecord), prices };
};

/**
 * A rolled-up database as a mock world (`@gmi/rules/world/types`): the enabled catalog with its
 * price observations, and the snapshots of every period dated `dates`, their rows as stored. What
 * `installGmiMocks({ world })` serves, so a frontend test runs against a copy of real figures.
 */
export const exportMockWorld = async (
  sql: Sql,
  options: { dates: readonly IsoDay[]; scoring: ScoringConfig },
): Promise<MockWorld> => {
  const [catalog, heads] = await Promise.all([readCatalog(sql), readSnapshots(sql, options.dates)]);
  const ids = heads.map((h) => h.id);
  const [liquidity, searches, conditions] = await Promise.all([
    rowsOf<StoredLiquidityRow>(sql, LIQUIDITY_SNAPSHOT_ROWS, rowColumns(LIQUIDITY_SNAPSHOT_ROWS), ids),
    rowsOf<StoredSearchRow & { mobileCount: number | null; resultCountSum: number | null }>(
      sql,
      SEARCH_SNAPSHOT_ROWS,
      rowColumns(SEARCH_SNAPSHOT_ROWS),
      ids,
    ),
    rowsOf<StoredConditionRow>(sql, CONDITION_SNAPSHOT_ROWS, rowColumns(CONDITION_SNAPSHOT_ROWS), ids),
  ]).then(([l, s, c]) => [bySnapshot(l), bySnapshot(s), bySnapshot(c)] as const);
  const snapshots: MockSnapshot[] = heads.map((head) => ({
    period: head.period,
    date: head.date,
    dayHasEvents: head.dayHasEvents,
    liquidity: liquidity.get(head.id) ?? [],
    searches: searches.get(head.id) ?? [],
    conditions: conditions.get(head.id) ?? [],
  }));
  return { version: MOCK_WORLD_VERSION, scoring: options.scoring, catalog, snapshots };
};

/** The computed dates of any period within `first`..`last`, oldest first. */
export const snapshotDates = async (sql: Sql, first: IsoDay, last: IsoDay): Promise<IsoDay[]> => {
  const { rows } = await sql.query<{ date: IsoDay }>(
    `SELECT DISTINCT to_char(date, 'YYYY-MM-DD') AS date FROM snapshots
     WHERE date BETWEEN $1::date AND $2::date ORDER BY 1`,
    [first, last],
  );
  return rows.map((r) => r.date);
};
