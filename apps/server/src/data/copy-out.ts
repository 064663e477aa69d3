import type pg from "pg";
import { to as copyTo } from "pg-copy-streams";

/** One row of a COPY text export: each field's text, null for SQL NULL. */
export type CopyRow = (string | null)[];

/**
 * Returns the rows of `select` as field texts. With `copy`, through `COPY (select) TO STDOUT`: for
 * results of ~100k rows and ~20 columns several times cheaper in Node than a query's row objects
 * (one split per line against a type parser call and an object property per field), which matters
 * on the rollup's critical path. Without, a plain query, for the embedded database, whose
 * wire-protocol server does not speak COPY. COPY takes no bind parameters: `select` must be
 * complete SQL.
 */
export const readRows = async (
  client: pg.PoolClient | pg.Client,
  select: string,
  options: { copy: boolean },
): Promise<CopyRow[]> => {
  if (options.copy) return copyOut(client, select);
  const { rows } = await client.query<unknown[]>({ text: select, rowMode: "array" });
  return rows.map((row) => row.map((value) => (value === null ? null : String(value))));
};

const copyOut = async (client: pg.PoolClient | pg.Client, select: string): Promise<CopyRow[]> => {
  const chunks: Buffer[] = [];
  for await (const chunk of client.query(copyTo(`COPY (${select}) TO STDOUT`))) chunks.push(chunk as Buffer);
  // Decoded once, whole: a chunk boundary may fall inside a multi-byte character.
  const text = Buffer.concat(chunks).toString("utf8");
  const rows: CopyRow[] = [];
  let start = 0;
  while (start < text.length) {
    let end = text.indexOf("\n", start);
    if (end === -1) end = text.length;
    rows.push(text.slice(start, end).split("\t").map(copyField));
    start = end + 1;
  }
  return rows;
};

const ESCAPES: Record<string, string> = { b: "\b", f: "\f", n: "\n", r: "\r", t: "\t", v: "\v" };

/** COPY text format: `\N` is NULL; a backslash escapes the delimiters, itself and control characters. */
const copyField = (field: string): string | null => {
  if (field === "\\N") return null;
  if (!field.includes("\\")) return field;
  return field.replace(/\\(.)/g, (_, ch: string) => ESCAPES[ch] ?? ch);
};

/** A field of a numeric column; NULL reads as 0 (a SUM over no rows, for instance). */
export const copyNumber = (field: string | null | undefined): number => (field == null ? 0 : Number(field));
