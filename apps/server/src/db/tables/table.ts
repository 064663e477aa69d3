/**
 * A table as the code that writes it in bulk (COPY, batched INSERTs) and reads it by column list
 * knows it: its name, its columns in order, their PostgreSQL types. Declared once per table here
 * (db/tables/*.ts); test/table-declarations.test.ts compares every declaration with the migrated
 * database, so a change to schema.prisma and its migration that is not made here fails.
 */

/** PostgreSQL type names, as information_schema spells them (`int4[]` for `_int4`). */
export type ColumnType =
  | "int4"
  | "int8"
  | "float8"
  | "numeric"
  | "text"
  | "int4[]"
  | "uuid"
  | "timestamptz"
  | "date";

export type ColumnDeclaration = {
  readonly name: string;
  readonly type: ColumnType;
  readonly nullable?: boolean;
  /** Filled by the database (a sequence): no writer names it. */
  readonly generated?: boolean;
};

export type TableDeclaration = { readonly name: string; readonly columns: readonly ColumnDeclaration[] };

export const declareTable = <const T extends TableDeclaration>(table: T): T => table;

/** The names of a declared table's columns. */
export type ColumnOf<T extends TableDeclaration> = T["columns"][number]["name"];

/** The columns a writer fills, in the table's order: all but those the database generates. */
export const writtenColumns = (table: TableDeclaration): readonly ColumnDeclaration[] =>
  table.columns.filter((column) => !column.generated);

const camelCase = (name: string) => name.replace(/_([a-z])/g, (_, letter: string) => letter.toUpperCase());

/**
 * A SELECT list of `columns` named as the row types' fields (`search_count AS "searchCount"`),
 * qualified by `alias` when given.
 */
export const selectFields = <T extends TableDeclaration>(
  table: T,
  columns: readonly ColumnOf<T>[],
  alias?: string,
): string => {
  const declared = new Set(table.columns.map((column) => column.name));
  return columns
    .map((name) => {
      if (!declared.has(name)) throw new Error(`${table.name} declares no column ${name}`);
      return `${alias ? `${alias}.` : ""}${name} AS "${camelCase(name)}"`;
    })
    .join(", ");
};

/** Every column of a table but `except`, in the table's order. */
export const columnsExcept = <T extends TableDeclaration>(
  table: T,
  except: readonly ColumnOf<T>[],
): ColumnOf<T>[] =>
  table.columns.map((column) => column.name as ColumnOf<T>).filter((name) => !except.includes(name));
