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
  // A stream chunk per row costs more than the row's text: rows are gathered into blocks.
  async function* blocks() {
    let block = "";
    for await (const row of rows) {
      count += 1;
      let line = copyText(row[0]);
      for (let i = 1; i < row.length; i++) line += `\t${copyText(row[i])}`;
      block += `${line}\n`;
      if (block.length >= COPY_BLOCK) {
        yield block;
        block = "";
      }
    }
    if (block) yield block;
  }
  await pipeline(Readable.from(blocks()), sink);
  return count;
};

const SPECIAL = /[\\\t\n\r]/;

/** COPY text format: \N for null, backslash escapes for the characters that delimit. */
const copyText = (value: unknown): string => {
  if (value === null || value === undefined) return "\\N";
  if (typeof value === "number") return String(value);
  const text = value instanceof Date ? value.toISOString() : String(value);
  if (!SPECIAL.test(text)) return text;
  return text.replace(
    /[\\\t\n\r]/g,
    (ch) => ({ "\\": "\\\\", "\t": "\\t", "\n": "\\n", "\r": "\\r" })[ch] as string,
  );
};

const insertBatches = async (
  client: pg.PoolClient | pg.Client,
  table: Table,
  rows: Iterable<Row> | AsyncIterable<Row>,
  batchSize: number,
) => {
  const columns = table.columns.map((c) => `"${c.name}"`).join(", ");
  const arrays = table.columns.map((c, i) => `$${i + 1}::${c.type}[]`).join(", ");
  const sql = `INSERT INTO "${table.name}" (${columns}) SELECT * FROM unnest(${arrays})`;
  let count = 0;
  let batch: unknown[][] = table.columns.map(() => []);
  const flush = async () => {
    if ((batch[0]?.length ?? 0) === 0) return;
    await client.query(sql, batch);
    batch = table.columns.map(() => []);
  };
  for await (const row of rows) {
    row.forEach((value, i) => {
      batch[i]?.push(value);
    });
    count += 1;
    if ((batch[0]?.length ?? 0) >= batchSize) await flush();
  }
  await flush();
  return count;
};
