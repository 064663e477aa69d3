import type { ConsoleRow, GameRow } from "../domain/catalog/records.js";
import type { CursorPosition } from "../domain/pagination/cursor.js";
import type { Listed, PageRequest } from "../domain/pagination/page.js";
import { fetchSize } from "../domain/pagination/page.js";
import type { Sql } from "./sql.js";
import { prepared } from "./sql.js";

const GAME_COLUMNS = `g.id, g.display_game_name, g.marketplace_game_name, g.console_id,
  c.name AS console_name, c.slug AS console_slug,
  g.price_loose::text AS price_loose, g.price_complete::text AS price_complete, g.price_new::text AS price_new`;
const GAMES_FROM = "games g JOIN consoles c ON c.id = g.console_id";

type ListSpec = {
  columns: string;
  from: string;
  where: string[];
  params: unknown[];
  /** The total order: sort expressions ending with the id, matched by the cursor position. */
  order: string[];
  /** The list's size, as a scalar select (the params are the page's first ones). */
  countSql: string;
};

/**
 * One page of a keyset-ordered list plus its total, in one prepared statement: the count as a
 * scalar subselect beside the page's own query, which keeps its index plan. Page mode uses OFFSET;
 * cursor mode continues strictly after the position with a row comparison that the (enabled, name,
 * id) indexes serve. A page past the end is the one row of the total with null row columns.
 */
const listPage = async <Row extends { id: number }>(
  sql: Sql,
  spec: ListSpec,
  request: PageRequest,
): Promise<Listed<Row>> => {
  const where = [...spec.where];
  const params = [...spec.params];
  if (request.mode === "cursor" && request.after) {
    const after: CursorPosition = request.after;
    const placeholders = after.map((value) => {
      params.push(value);
      return `$${params.length}`;
    });
    where.push(`(${spec.order.join(", ")}) > (${placeholders.join(", ")})`);
  }
  params.push(fetchSize(request));
  let tail = `LIMIT $${params.length}`;
  if (request.mode === "page") {
    params.push(request.offset);
    tail += ` OFFSET $${params.length}`;
  }
  const text = `SELECT (${spec.countSql}) AS list_total, p.* FROM (SELECT 1) one LEFT JOIN LATERAL (
    SELECT ${spec.columns} FROM ${spec.from} ${where.length ? `WHERE ${where.join(" AND ")}` : ""}
    ORDER BY ${spec.order.join(", ")} ${tail}) p ON true`;
  const { rows } = await sql.query<Row & { list_total: number }>(prepared(text, params));
  const total = rows[0]?.list_total ?? 0;
  const page: Row[] = [];
  for (const { list_total: _, ...row } of rows) if (row.id !== null) page.push(row as unknown as Row);
  return { rows: page, total };
};

export type TitleRow = { id: number; display_game_name: string };
export type SlugRow = { id: number; marketplace_game_name: string };

export const listTitles = (sql: Sql, request: PageRequest) =>
  listPage<TitleRow>(
    sql,
    {
      columns: "id, display_game_name",
      from: "games",
      where: ["enabled"],
      params: [],
      order: ["display_game_name", "id"],
      countSql: "SELECT count(*)::int FROM games WHERE enabled",
    },
    request,
  );

export const listSlugs = (sql: Sql, request: PageRequest) =>
  listPage<SlugRow>(
    sql,
    {
      columns: "id, marketplace_game_name",
      from: "games",
      where: ["enabled"],
      params: [],
      order: ["marketplace_game_name", "id"],
      countSql: "SELECT count(*)::int FROM games WHERE enabled",
    },
    request,
  );

export const listConsoleGames = (sql: Sql, consoleId: number, request: PageRequest) =>
  listPage<GameRow>(
    sql,
    {
      columns: GAME_COLUMNS,
      from: GAMES_FROM,
      where: ["g.enabled", "g.console_id = $1"],
      params: [consoleId],
      order: ["g.display_game_name", "g.id"],
      countSql: "SELECT count(*)::int FROM games WHERE enabled AND console_id = $1",
    },
    request,
  );

export const listConsoles = (sql: Sql, request: PageRequest) =>
  listPage<ConsoleRow>(
    sql,
    {
      columns: `c.id, c.name, c.slug,
        (SELECT count(*) FROM games g WHERE g.enabled AND g.console_id = c.id)::int AS game_count`,
      from: "consoles c",
      where: [],
      params: [],
      order: ["c.name", "c.id"],
      countSql: "SELECT count(*)::int FROM consoles",
    },
    request,
  );

export const findGameById = async (sql: Sql, id: number): Promise<GameRow | null> => {
  const result = await sql.query<GameRow>(
    prepared(`SELECT ${GAME_COLUMNS} FROM ${GAMES_FROM} WHERE g.enabled AND g.id = $1`, [id]),
  );
  return result.rows[0] ?? null;
};

/** Same slug or title on several consoles: ordered by console name, then id. */
export const findGamesBySlug = async (sql: Sql, slug: string): Promise<GameRow[]> =>
  (
    await sql.query<GameRow>(
      prepared(
        `SELECT ${GAME_COLUMNS} FROM ${GAMES_FROM} WHERE g.enabled AND g.marketplace_game_name = $1 ORDER BY c.name, g.id`,
        [slug],
      ),
    )
  ).rows;

export const findGamesByTitleKey = async (sql: Sql, key: string): Promise<GameRow[]> =>
  (
    await sql.query<GameRow>(
      prepared(
        `SELECT ${GAME_COLUMNS} FROM ${GAMES_FROM} WHERE g.enabled AND g.title_key = $1 ORDER BY c.name, g.id`,
        [key],
      ),
    )
  ).rows;

export const countGames = async (sql: Sql): Promise<number> =>
  (await sql.query<{ n: number }>("SELECT count(*)::int AS n FROM games")).rows[0]?.n ?? 0;
