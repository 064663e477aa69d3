import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import type pg from "pg";
import { from as copyFrom } from "pg-copy-streams";
import {
  type ColumnOf,
  type ColumnType,
  fieldOf,
  type RowOf,
  type TableDeclaration,
  writtenColumns,
} from "../tables/table.js";
import { BinaryCopyEncoder, type FieldWriter } from "./copy-binary.js";

export type Column = { name: string; type: string };
export type Table = { name: string; columns: readonly Column[] };
export type Row = readonly unknown[];

/**
 * Inserts many rows on `client` (inside the caller's transaction, if any). With `copy`, PostgreSQL
 * COPY in text format, the fastest path for rows of values; without, batched
 * `INSERT ... SELECT FROM unnest(...)`, for the embedded database, whose wire-protocol server does
 * not speak COPY. `onConflict` (INSERTs only) is the statement's `ON CONFLICT` target and action;
 * the count returned is then the rows it inserted.
 */
export const bulkInsert = async (
  client: pg.PoolClient | pg.Client,
  table: Table,
  rows: Iterable<Row> | AsyncIterable<Row>,
  options: { copy: boolean; batchSize?: number; onConflict?: string },
): Promise<number> =>
  options.copy
    ? copyRows(client, table, rows, textEncoder(), "text")
    : insertBatches(client, table, rows, options.batchSize ?? DEFAULT_BATCH, options.onConflict);

/**
 * COPY of rows already encoded in the binary format (a `BinaryCopyEncoder`'s blocks, its end
 * included): a caller that encodes each row as it arrives keeps bytes instead of values.
 */
export const copyBinaryBlocks = async (
  client: pg.PoolClient | pg.Client,
  table: Table,
  blocks: readonly Buffer[],
): Promise<void> => {
  const columns = table.columns.map((c) => `"${c.name}"`).join(", ");
  const sink = client.query(copyFrom(`COPY "${table.name}" (${columns}) FROM STDIN WITH (FORMAT binary)`));
  await pipeline(Readable.from(blocks), sink);
};

/**
 * A declared table (db/tables/) whose rows are objects written field by field: `write` names each
 * column with its value, in the declaration's order, the same for every row. Checked against the
 * declaration (names, order, types) at every insert, on its first row.
 */
export type WrittenTable<T, D extends TableDeclaration = TableDeclaration> = {
  table: D;
  write(fields: FieldWriter<ColumnOf<D>>, row: T): void;
};

/** The FieldWriter method that writes each column type in binary COPY. */
const WRITE_METHOD: Partial<Record<ColumnType, keyof FieldWriter>> = {
  int4: "int",
  float8: "float8",
  text: "text",
  "int4[]": "intArray",
};

/**
 * The writer of a declared table whose rows are its RowOf (a field per column), derived from the
 * declaration: every written column but `skip` (columns the caller writes itself, before), in order,
 * from its field, by its type. Compiled once into straight-line code, the writer one would write by
 * hand (`fields.int("game_id", row.gameId); ...`): a function per column, or a loop looking fields
 * up by name, made the rollup's binary encoding about twice as slow (200k rows, A/B in one process).
 * The code is made from our own declarations only, each name checked to be a plain identifier.
 */
export const declaredWriter = <D extends TableDeclaration, Skip extends ColumnOf<D> = never>(
  table: D,
  skip: readonly Skip[] = [],
): WrittenTable<RowOf<D, Skip>, D> => {
  const skipped = new Set<string>(skip);
  const statements = writtenColumns(table)
    .filter((column) => !skipped.has(column.name))
    .map(({ name, type }) => {
      const method = WRITE_METHOD[type];
      if (!method) throw new Error(`${table.name}.${name}: no field writer for ${type} columns`);
      if (!/^[a-z][a-z0-9_]*$/.test(name)) throw new Error(`${table.name}.${name}: not a plain column name`);
      return `fields.${method}("${name}", row.${fieldOf(name)});`;
    });
  const write = new Function("fields", "row", statements.join("\n"));
  return { table, write: write as WrittenTable<RowOf<D, Skip>, D>["write"] };
};

/**
 * Inserts objects into a written table. With `copy`, COPY in the binary format, each field put
 * straight into the buffer: a rollup writes ~200k snapshot rows, where a value array per row and
 * a number's decimal text per field were most of its writes' cost on the Node thread. Without,
 * the same batched INSERTs as `bulkInsert`.
 */
export const insertWritten = async <T>(
  client: pg.PoolClient | pg.Client,
  table: WrittenTable<T>,
  rows: readonly T[],
  options: { copy: boolean },
): Promise<number> => {
  const first = rows[0];
  if (first === undefined) return 0;
  const shape: Table = { name: table.table.name, columns: writtenColumns(table.table) };
  checkWriter(table, first);
  if (!options.copy) return insertBatches(client, shape, valuesOf(table, rows), DEFAULT_BATCH);
  const encoder = new BinaryCopyEncoder(COPY_BLOCK);
  return copyRows(
    client,
    shape,
    rows,
    {
      add: (row) => {
        encoder.beginRow(shape.columns.length);
        table.write(encoder, row);
        return encoder.takeFullBlock();
      },
      end: () => encoder.end(),
    },
    "binary",
  );
};

/** Throws when a written table's `write` does not name its declared columns, in order, as typed. */
const checkWriter = <T>(table: WrittenTable<T>, row: T) => {
  const written: Column[] = [];
  const as = (type: ColumnType) => (name: string) => {
    written.push({ name, type });
  };
  table.write({ int: as("int4"), float8: as("float8"), text: as("text"), intArray: as("int4[]") }, row);
  const show = (columns: readonly Column[]) => columns.map((c) => `${c.name} ${c.type}`).join(", ");
  const declared = writtenColumns(table.table);
  if (show(written) !== show(declared))
    throw new Error(
      `${table.table.name}: its writer writes (${show(written)}), it declares (${show(declared)})`,
    );
};

/** A written table's rows as values, one at a time in one reused array (read before the next). */
function* valuesOf<T>(table: WrittenTable<T>, rows: readonly T[]): Generator<Row> {
  const values: unknown[] = [];
  const collect = (_: string, value: unknown) => {
    values.push(value);
  };
  const writer: FieldWriter = { int: collect, float8: collect, text: collect, intArray: collect };
  for (const row of rows) {
    values.length = 0;
    table.write(writer, row);
    yield values;
  }
}

const DEFAULT_BATCH = 5_000;

/** COPY data goes to the server in blocks of about this size (characters, or bytes in binary), not a write per row. */
const COPY_BLOCK = 64 * 1024;

/** Turns rows into COPY data, handed out in blocks of about COPY_BLOCK as they fill. */
type CopyEncoder<R> = { add(row: R): string | Buffer | undefined; end(): string | Buffer | undefined };

const copyRows = async <R>(
  client: pg.PoolClient | pg.Client,
  table: Table,
  rows: Iterable<R> | AsyncIterable<R>,
  encoder: CopyEncoder<R>,
  format: "text" | "binary",
) => {
  let count = 0;
  const columns = table.columns.map((c) => `"${c.name}"`).join(", ");
  const sink = client.query(
    copyFrom(
      `COPY "${table.name}" (${columns}) FROM STDIN${format === "binary" ? " WITH (FORMAT binary)" : ""}`,
    ),
  );
  // A stream chunk per row costs more than the row's data: rows are gathered into blocks. Rows
  // already in memory are read without an await each (a microtask per row showed in profiles).
  function* fromSync(source: Iterable<R>) {
    for (const row of source) {
      count += 1;
      const full = encoder.add(row);
      if (full) yield full;
    }
    const rest = encoder.end();
    if (rest) yield rest;
  }
  async function* fromAsync(source: AsyncIterable<R>) {
    for await (const row of source) {
      count += 1;
      const full = encoder.add(row);
      if (full) yield full;
    }
    const rest = encoder.end();
    if (rest) yield rest;
  }
  const source = Symbol.iterator in rows ? fromSync(rows) : fromAsync(rows);
  await pipeline(Readable.from(source), sink);
  return count;
};

/** The text format: a line per row, gathered into blocks. */
const textEncoder = (): CopyEncoder<Row> => {
  let block = "";
  return {
    add: (row) => {
      block += copyLine(row);
      if (block.length < COPY_BLOCK) return undefined;
      const full = block;
      block = "";
      return full;
    },
    end: () => block || undefined,
  };
};

/** One row in COPY text format, with its line end (benches write the same rows a raw COPY reads). */
export const copyLine = (row: Row): string => {
  let line = copyText(row[0]);
  for (let i = 1; i < row.length; i++) line += `\t${copyText(row[i])}`;
  return `${line}\n`;
};

const SPECIAL = /[\\\t\n\r]/;

/**
 * COPY text format: \N for null, backslash escapes for the characters that delimit; an array of
 * numbers as an array literal (`{1,2,3}`).
 */
const copyText = (value: unknown): string => {
  if (value === null || value === undefined) return "\\N";
  if (typeof value === "number") return String(value);
  if (Array.isArray(value)) return numberArrayLiteral(value);
  const text = value instanceof Date ? value.toISOString() : String(value);
  if (!SPECIAL.test(text)) return text;
  return text.replace(
    /[\\\t\n\r]/g,
    (ch) => ({ "\\": "\\\\", "\t": "\\t", "\n": "\\n", "\r": "\\r" })[ch] as string,
  );
};

const numberArrayLiteral = (values: readonly unknown[]): string => {
  if (!values.every((v) => typeof v === "number" && Number.isFinite(v))) {
    throw new TypeError("bulkInsert: only arrays of finite numbers are supported");
  }
  return `{${values.join(",")}}`;
};

/** An array column travels as its literal text: `unnest` would flatten an array of arrays. */
const isArrayType = (type: string) => type.endsWith("[]");

const insertBatches = async (
  client: pg.PoolClient | pg.Client,
  table: Table,
  rows: Iterable<Row> | AsyncIterable<Row>,
  batchSize: number,
  onConflict?: string,
) => {
  const columns = table.columns.map((c) => `"${c.name}"`).join(", ");
  const arrays = table.columns
    .map((c, i) => `$${i + 1}::${isArrayType(c.type) ? "text" : c.type}[]`)
    .join(", ");
  const values = table.columns.map((c, i) => `v${i}${isArrayType(c.type) ? `::${c.type}` : ""}`).join(", ");
  const names = table.columns.map((_, i) => `v${i}`).join(", ");
  const conflict = onConflict ? ` ON CONFLICT ${onConflict}` : "";
  const sql = `INSERT INTO "${table.name}" (${columns}) SELECT ${values} FROM unnest(${arrays}) AS u(${names})${conflict}`;
  let count = 0;
  let batch: unknown[][] = table.columns.map(() => []);
  const flush = async () => {
    if ((batch[0]?.length ?? 0) === 0) return;
    const result = await client.query(sql, batch);
    if (onConflict) count += result.rowCount ?? 0;
    batch = table.columns.map(() => []);
  };
  for await (const row of rows) {
    row.forEach((value, i) => {
      batch[i]?.push(Array.isArray(value) ? numberArrayLiteral(value) : value);
    });
    if (!onConflict) count += 1;
    if ((batch[0]?.length ?? 0) >= batchSize) await flush();
  }
  await flush();
  return count;
};
