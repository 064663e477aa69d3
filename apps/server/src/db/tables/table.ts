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

/** What the code holds for a value of each column type (as written; the reads ask for the same). */
type ValueOf = {
  int4: number;
  int8: number;
  float8: number;
  /** Decimal strings (`"149.99"`), never floats. */
  numeric: string;
  text: string;
  "int4[]": number[];
  uuid: string;
  timestamptz: Date;
  date: string;
};

type CamelCase<S extends string> = S extends `${infer Head}_${infer Tail}`
  ? `${Head}${Capitalize<CamelCase<Tail>>}`
  : S;

/**
 * A row of a declared table as the code holds it: a field per column, named in camelCase
 * (`search_count` → `searchCount`), typed by the column's type and nullability; `Except`'s columns
 * left out. The declaration is the one statement of a row's fields: the rollup's rows, the
 * snapshot reads and the writers all take their shape from it.
 */
export type RowOf<T extends TableDeclaration, Except extends ColumnOf<T> = never> = {
  -readonly [C in T["columns"][number] as C["name"] extends Except
    ? never
    : CamelCase<C["name"]>]: FieldOf<C>;
};

/** A column's value in its row: null too when the column is nullable. */
type FieldOf<C extends ColumnDeclaration> = C extends { nullable: true }
  ? ValueOf[C["type"]] | null
  : ValueOf[C["type"]];

/**
 * A row type with some fields narrowed (a text column holding one of a few labels): the fields
 * stay the declaration's, and each narrowed type must fit the declared one.
 */
export type Narrowed<
  Row,
  Narrow extends { [K in keyof Narrow]: K extends keyof Row ? Row[K] : never },
> = Omit<Row, keyof Narrow> & Narrow;

/** The columns a writer fills, in the table's order: all but those the database generates. */
export const writtenColumns = (table: TableDeclaration): readonly ColumnDeclaration[] =>
  table.columns.filter((column) => !column.generated);

/** The field of a column in its row (RowOf): its name in camelCase. */
export const fieldOf = (column: string): string =>
  column.replace(/_([a-z])/g, (_, letter: string) => letter.toUpperCase());

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
      return `${alias ? `${alias}.` : ""}${name} AS "${fieldOf(name)}"`;
    })
    .join(", ");
};

/** Every column of a table but `except`, in the table's order. */
export const columnsExcept = <T extends TableDeclaration>(
  table: T,
  except: readonly ColumnOf<T>[],
): ColumnOf<T>[] =>
  table.columns.map((column) => column.name as ColumnOf<T>).filter((name) => !except.includes(name));
