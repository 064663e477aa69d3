import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import type pg from "pg";
import { from as copyFrom } from "pg-copy-streams";

export type Column = { name: string; type: string };
export type Table = { name: string; columns: readonly Column[] };
export type Row = readonly unknown[];

/**
 * Inserts many rows on `client` (inside the caller's transaction, if any). With `copy`, PostgreSQL
 * COPY in text format, the fastest path; without, batched `INSERT ... SELECT FROM unnest(...)`,
 * for the embedded database, whose wire-protocol server does not speak COPY.
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

/** COPY data goes to the server in blocks of about this many characters, not a write per row. */
const COPY_BLOCK = 64 * 1024;

const copyRows = async (
  client: pg.PoolClient | pg.Client,
  table: Table,
  rows: Iterable<Row> | AsyncIterable<Row>,
) => {
  let count = 0;
  const columns = table.columns.map((c) => `"${c.name}"`).join(", ");
  const sink = client.query(copyFrom(`COPY "${table.name}" (${columns}) FROM STDIN`));
  // A stream chunk per row costs more than the row's text: rows are gathered into blocks. Rows
  // already in memory are read without an await each (a microtask per row showed in profiles).
  const blocks = new BlockGatherer();
  function* fromSync(source: Iterable<Row>) {
    for (const row of source) {
      count += 1;
      const full = blocks.add(copyLine(row));
      if (full) yield full;
    }
    if (blocks.rest()) yield blocks.rest();
  }
  async function* fromAsync(source: AsyncIterable<Row>) {
    for await (const row of source) {
      count += 1;
      const full = blocks.add(copyLine(row));
      if (full) yield full;
    }
    if (blocks.rest()) yield blocks.rest();
  }
  const source = Symbol.iterator in rows ? fromSync(rows) : fromAsync(rows);
  await pipeline(Readable.from(source), sink);
  return count;
};

/** Collects lines and hands back a block once it holds about COPY_BLOCK characters. */
class BlockGatherer {
  private block = "";
  add(line: string): string | undefined {
    this.block += line;
    if (this.block.length < COPY_BLOCK) return undefined;
    const full = this.block;
    this.block = "";
    return full;
  }
  rest(): string {
    return this.block;
  }
}

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
