import { describe, expect, it } from "vitest";
import type { Database } from "../src/db/open.js";
import { EVENT_TABLES } from "../src/db/tables/events.js";
import { PRICE_OBSERVATIONS } from "../src/db/tables/price-observations.js";
import { SNAPSHOT_ROW_TABLES } from "../src/db/tables/snapshot-rows.js";
import type { ColumnDeclaration, TableDeclaration } from "../src/db/tables/table.js";
import { useTestDatabase } from "./helpers/setup.js";

const db = useTestDatabase({ catalog: false });

const DECLARED: readonly TableDeclaration[] = [...SNAPSHOT_ROW_TABLES, ...EVENT_TABLES, PRICE_OBSERVATIONS];

type Described = Required<ColumnDeclaration>;

/** A declaration with its defaults spelled out, as `described` reads a table. */
const spelledOut = (table: TableDeclaration): Described[] =>
  table.columns.map((column) => ({
    name: column.name,
    type: column.type,
    nullable: column.nullable ?? false,
    generated: column.generated ?? false,
  }));

/** A table's columns as the migrated database has them, in order. */
const described = async (database: Database, table: string): Promise<Described[]> => {
  const { rows } = await database.pool.query<{
    name: string;
    udt: string;
    nullable: string;
    default: string | null;
  }>(
    `SELECT column_name AS name, udt_name AS udt, is_nullable AS nullable, column_default AS default
     FROM information_schema.columns WHERE table_schema = current_schema() AND table_name = $1
     ORDER BY ordinal_position`,
    [table],
  );
  return rows.map((row) => ({
    name: row.name,
    type: (row.udt.startsWith("_") ? `${row.udt.slice(1)}[]` : row.udt) as Described["type"],
    nullable: row.nullable === "YES",
    generated: row.default?.startsWith("nextval(") ?? false,
  }));
};

/**
 * db/tables/*.ts declares each table the COPY writers and the snapshot reads use; schema.prisma and
 * the migrations define them. A change to one side alone fails here.
 */
describe("table declarations", () => {
  it.each(DECLARED.map((table) => [table.name, table] as const))(
    "%s is declared as migrated: every column, in order, its type, nullability and generation",
    async (_, table) => {
      expect(await described(db(), table.name)).toEqual(spelledOut(table));
    },
  );

  it("tells a column added by a migration alone", async () => {
    const [table] = SNAPSHOT_ROW_TABLES;
    await db().pool.query(`ALTER TABLE ${table.name} ADD COLUMN drift_probe int`);
    try {
      expect(await described(db(), table.name)).not.toEqual(spelledOut(table));
    } finally {
      await db().pool.query(`ALTER TABLE ${table.name} DROP COLUMN drift_probe`);
    }
  });
});
