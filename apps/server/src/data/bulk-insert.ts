import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import type pg from "pg";
import { from as copyFrom } from "pg-copy-streams";
import { BinaryCopyEncoder, type BinaryType, isBinaryType } from "./copy-binary.js";

export type Column = { name: string; type: string };
export type Table = { name: string; columns: readonly Column[] };
export type Row = readonly unknown[];

/**
 * Inserts many rows on `client` (inside the caller's transaction, if any). With `copy`, PostgreSQL
 * COPY, the fastest path: in the binary format when every column's type has an encoding there
 * (copy-binary.ts), else in text; without, batched `INSERT ... SELECT FROM unnest(...)`,
 * for the embedded database, whose wire-protocol server does not speak COPY. Each row is read
 * before the next is asked for, so a source may hand out one array refilled for every row.
 */
export const bulkInsert = async (
  client: pg.PoolClient | pg.Client,
  table: Table,
  rows: Iterable<Row> | AsyncIterable<Row>,
  options: { copy: boolean; batchSize?: number },
): Promise<number> =>
  options.copy
    ? copyRows(client, table, rows)
    : insertBatches(client, table, rows, options.batchSize ?? 5_000);

/** COPY data goes to the server in blocks of about this size (characters, or bytes in binary), not a write per row. */
const COPY_BLOCK = 64 * 1024;

/** Turns rows into COPY data, handed out in blocks of about COPY_BLOCK as they fill. */
type CopyEncoder = { add(row: Row): string | Buffer | undefined; end(): string | Buffer | undefined };

const copyRows = async (
  client: pg.PoolClient | pg.Client,
  table: Table,
  rows: Iterable<Row> | AsyncIterable<Row>,
) => {
  let count = 0;
  const columns = table.columns.map((c) => `"${c.name}"`).join(", ");
  const types = table.columns.map((c) => c.type);
  const binary = types.every(isBinaryType);
  const encoder = binary ? binaryEncoder(types) : textEncoder();
  const sink = client.query(
    copyFrom(`COPY "${table.name}" (${columns}) FROM STDIN${binary ? " WITH (FORMAT binary)" : ""}`),
  );
  // A stream chunk per row costs more than the row's data: rows are gathered into blocks. Rows
  // already in memory are read without an await each (a microtask per row showed in profiles).
  function* fromSync(source: Iterable<Row>) {
    for (const row of source) {
      count += 1;
      const full = encoder.add(row);
      if (full) yield full;
    }
    const rest = encoder.end();
    if (rest) yield rest;
  }
  async function* fromAsync(source: AsyncIterable<Row>) {
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
const textEncoder = (): CopyEncoder => {
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

/** The binary format (copy-binary.ts), for tables whose every column type has an encoding there. */
const binaryEncoder = (types: readonly BinaryType[]): CopyEncoder => {
  const encoder = new BinaryCopyEncoder(types, COPY_BLOCK);
  return {
    add: (row) => {
      encoder.row(row);
      return encoder.takeFullBlock();
    },
    end: () => encoder.end(),
  };
};

const copyLine = (row: Row): string => {
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
) => {
  const columns = table.columns.map((c) => `"${c.name}"`).join(", ");
  const arrays = table.columns
    .map((c, i) => `$${i + 1}::${isArrayType(c.type) ? "text" : c.type}[]`)
    .join(", ");
  const values = table.columns.map((c, i) => `v${i}${isArrayType(c.type) ? `::${c.type}` : ""}`).join(", ");
  const names = table.columns.map((_, i) => `v${i}`).join(", ");
  const sql = `INSERT INTO "${table.name}" (${columns}) SELECT ${values} FROM unnest(${arrays}) AS u(${names})`;
  let count = 0;
  let batch: unknown[][] = table.columns.map(() => []);
  const flush = async () => {
    if ((batch[0]?.length ?? 0) === 0) return;
    await client.query(sql, batch);
    batch = table.columns.map(() => []);
  };
  for await (const row of rows) {
    row.forEach((value, i) => {
      batch[i]?.push(Array.isArray(value) ? numberArrayLiteral(value) : value);
    });
    count += 1;
    if ((batch[0]?.length ?? 0) >= batchSize) await flush();
  }
  await flush();
  return count;
};
