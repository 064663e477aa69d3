import type pg from "pg";
import { to as copyTo } from "pg-copy-streams";
import type { IsoDay } from "../../domain/analytics/windows.js";

/**
 * The rows of a query whose first column is text (a key; NULL reads as "") and every other column a
 * number: the keys, and the numbers row by row in one array (`width` a row; NULL reads as 0, as a
 * SUM over no rows).
 */
export type KeyedNumbers = { keys: string[]; numbers: Float64Array; width: number };

/**
 * Reads `select` as keyed numbers. With `copy`, through `COPY (select) TO STDOUT`, parsed here
 * straight into the array: a rollup reads ~250k such rows on its single Node thread, where a pg
 * row object per row, or even a string per field and an array per row, and their garbage, were the
 * largest part of its time. Without, a plain query, for the embedded database, whose wire-protocol
 * server does not speak COPY. COPY takes no bind parameters: `select` must be complete SQL.
 */
export const readKeyedNumbers = async (
  client: pg.PoolClient | pg.Client,
  select: string,
  options: { copy: boolean },
): Promise<KeyedNumbers> => {
  if (options.copy) return parseCopyText(await copyOut(client, select));
  const { rows, fields } = await client.query<unknown[]>({ text: select, rowMode: "array" });
  const width = fields.length - 1;
  const numbers = new Float64Array(rows.length * width);
  rows.forEach((row, r) => {
    for (let i = 0; i < width; i++) numbers[r * width + i] = row[i + 1] == null ? 0 : Number(row[i + 1]);
  });
  return { keys: rows.map((row) => (row[0] == null ? "" : String(row[0]))), numbers, width };
};

/** COPY takes no bind parameters: the date goes into the SQL as a literal, once checked. */
export const withDateLiteral = (sql: string, date: IsoDay) => {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(date)) throw new RangeError(`not a date: ${date}`);
  return sql.replaceAll("$1::date", `'${date}'::date`);
};

const copyOut = async (client: pg.PoolClient | pg.Client, select: string): Promise<string> => {
  const chunks: Buffer[] = [];
  for await (const chunk of client.query(copyTo(`COPY (${select}) TO STDOUT`))) chunks.push(chunk as Buffer);
  // Decoded once, whole: a chunk boundary may fall inside a multi-byte character.
  return Buffer.concat(chunks).toString("utf8");
};

const TAB = 9;
const NEWLINE = 10;

/** COPY's text format: a line per row, fields separated by tabs, `\N` for NULL. */
const parseCopyText = (text: string): KeyedNumbers => {
  let rowCount = 0;
  for (let at = text.indexOf("\n"); at !== -1; at = text.indexOf("\n", at + 1)) rowCount++;
  const firstLine = text.slice(0, text.indexOf("\n"));
  const width = rowCount === 0 ? 0 : firstLine.split("\t").length - 1;
  const keys: string[] = new Array(rowCount);
  const numbers = new Float64Array(rowCount * width);
  let start = 0;
  for (let row = 0; row < rowCount; row++) {
    let end = text.indexOf("\t", start);
    if (end === -1 || width === 0) end = text.indexOf("\n", start);
    keys[row] = copyField(text.slice(start, end)) ?? "";
    for (let i = 0; i < width; i++) {
      start = end + 1;
      end = start;
      while (end < text.length && text.charCodeAt(end) !== TAB && text.charCodeAt(end) !== NEWLINE) end++;
      numbers[row * width + i] = numberBetween(text, start, end);
    }
    start = end + 1;
  }
  return { keys, numbers, width };
};

/**
 * A numeric field's value. Integers of up to 15 digits (every count and sum a rollup reads) are
 * read digit by digit, exactly; anything else (a fraction, an exponent, NULL) through Number.
 */
const numberBetween = (text: string, start: number, end: number): number => {
  let at = start;
  const negative = text.charCodeAt(at) === 45; // "-"
  if (negative) at++;
  if (at === end || end - at > 15) return slowNumber(text.slice(start, end));
  let value = 0;
  for (; at < end; at++) {
    const digit = text.charCodeAt(at) - 48;
    if (digit < 0 || digit > 9) return slowNumber(text.slice(start, end));
    value = value * 10 + digit;
  }
  return negative ? -value : value;
};

const slowNumber = (field: string): number => (field === "\\N" ? 0 : Number(field));

const ESCAPES: Record<string, string> = { b: "\b", f: "\f", n: "\n", r: "\r", t: "\t", v: "\v" };

/** COPY text format: `\N` is NULL; a backslash escapes the delimiters, itself and control characters. */
const copyField = (field: string): string | null => {
  if (field === "\\N") return null;
  if (!field.includes("\\")) return field;
  return field.replace(/\\(.)/g, (_, ch: string) => ESCAPES[ch] ?? ch);
};
