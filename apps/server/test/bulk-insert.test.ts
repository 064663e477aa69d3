import { describe, expect, it } from "vitest";
import {
  bulkInsert,
  declaredWriter,
  insertWritten,
  type Table,
  type WrittenTable,
} from "../src/db/copy/bulk-insert.js";
import { declareTable, type RowOf } from "../src/db/tables/table.js";
import { useTestDatabase } from "./helpers/setup.js";

const db = useTestDatabase({ catalog: false });

const TABLE: Table = {
  name: "bulk_insert_probe",
  columns: [
    { name: "n", type: "int" },
    { name: "label", type: "text" },
    { name: "share", type: "float8" },
    { name: "at", type: "timestamptz" },
  ],
};

/** Text that COPY's text format must escape, and a null of each kind. */
const rowsOf = (count: number) =>
  Array.from({ length: count }, (_, i) => [
    i,
    i % 5 === 0 ? null : `tab\there, newline\nthere, back\\slash, return\r ${i} ${"x".repeat(i % 97)}`,
    i % 7 === 0 ? null : i / 3,
    i % 11 === 0 ? undefined : new Date(Date.UTC(2026, 10, 20, 0, 0, i % 60)),
  ]);

const readBack = async () => {
  const { rows } = await db().pool.query<{
    n: number;
    label: string | null;
    share: number | null;
    at: Date | null;
  }>(`SELECT n, label, share, at FROM ${TABLE.name} ORDER BY n`);
  return rows.map((r) => [r.n, r.label, r.share, r.at?.toISOString() ?? null]);
};

const expected = (count: number) =>
  rowsOf(count).map(([n, label, share, at]) => [
    n,
    label,
    share,
    (at as Date | undefined)?.toISOString() ?? null,
  ]);

describe("bulkInsert", () => {
  // Over 64 KiB of text, so COPY sends several blocks and rows cross no block boundary broken.
  const COUNT = 2_500;

  for (const copy of [true, false]) {
    it(`stores every row exactly, escapes and nulls included (${copy ? "COPY" : "INSERT batches"})`, async ({
      skip,
    }) => {
      // The embedded database's wire-protocol server does not speak COPY.
      if (copy && db().embedded) skip();
      const pool = db().pool;
      await pool.query(
        `DROP TABLE IF EXISTS ${TABLE.name}; CREATE TABLE ${TABLE.name} (n int PRIMARY KEY, label text, share float8, at timestamptz)`,
      );
      const client = await pool.connect();
      try {
        const inserted = await bulkInsert(client, TABLE, rowsOf(COUNT), { copy, batchSize: 1_000 });
        expect(inserted).toBe(COUNT);
      } finally {
        client.release();
      }
      expect(await readBack()).toEqual(expected(COUNT));
    });
  }

  it("takes rows from an async source and inserts nothing from an empty one", async ({ skip }) => {
    if (db().embedded) skip();
    const pool = db().pool;
    await pool.query(
      `DROP TABLE IF EXISTS ${TABLE.name}; CREATE TABLE ${TABLE.name} (n int PRIMARY KEY, label text, share float8, at timestamptz)`,
    );
    const client = await pool.connect();
    try {
      async function* source() {
        yield* rowsOf(3);
      }
      expect(await bulkInsert(client, TABLE, source(), { copy: true })).toBe(3);
      expect(await bulkInsert(client, TABLE, [], { copy: true })).toBe(0);
    } finally {
      client.release();
    }
    expect(await readBack()).toEqual(expected(3));
  });

  for (const copy of [true, false]) {
    it(`writes objects field by field, exactly, by the writer its declaration gives (${copy ? "binary COPY" : "INSERT batches"})`, async ({
      skip,
    }) => {
      if (copy && db().embedded) skip();
      const pool = db().pool;
      await pool.query(
        "DROP TABLE IF EXISTS written_probe; CREATE TABLE written_probe (n int PRIMARY KEY, x float8, some_text text, a int[])",
      );
      const declared = declareTable({
        name: "written_probe",
        columns: [
          { name: "n", type: "int4" },
          { name: "x", type: "float8", nullable: true },
          { name: "some_text", type: "text", nullable: true },
          { name: "a", type: "int4[]", nullable: true },
        ],
      });
      // { n: number; x: number | null; someText: string | null; a: number[] | null }
      type Probe = RowOf<typeof declared>;
      const table = declaredWriter(declared);
      const texts = ["", "tab\there\n", "back\\slash \\N", "zelda \u{1F3AE} ₩ é"];
      // Longer than a COPY block (64 KiB), in a few rows only: in one row of five it was 42 MB, which
      // the embedded database took over 30 s to store on a busy machine.
      const long = "x".repeat(70_000);
      const floats = [0, -0.5, 1 / 3, 0.3333, 1e-300, 123456789.125, Number.MAX_VALUE];
      const rows: Probe[] = Array.from({ length: 3_000 }, (_, i) => ({
        n: i === 0 ? -(2 ** 31) : i === 1 ? 2 ** 31 - 1 : i,
        x: i % 9 === 0 ? null : (floats[i % floats.length] as number),
        someText: i % 13 === 0 ? null : `${i % 500 === 7 ? long : texts[i % texts.length]}${i}`,
        a: i % 4 === 0 ? null : i % 4 === 1 ? [] : [i, -i, 2 ** 31 - 1],
      }));
      const client = await pool.connect();
      try {
        expect(await insertWritten(client, table, rows, { copy })).toBe(rows.length);
        expect(await insertWritten(client, table, [], { copy })).toBe(0);
        // A writer that strays from its table's declaration is refused before anything is sent.
        const swapped: WrittenTable<Probe, typeof declared> = {
          table: declared,
          write: (f, r) => {
            f.int("n", r.n);
            f.text("some_text", r.someText);
            f.float8("x", r.x);
            f.intArray("a", r.a);
          },
        };
        await expect(insertWritten(client, swapped, rows, { copy })).rejects.toThrow(
          /written_probe: its writer writes \(n int4, some_text text, x float8, a int4\[\]\)/,
        );
        if (copy) {
          // A value the column cannot hold fails the COPY with a clear error; the connection stays usable.
          await expect(
            insertWritten(client, table, [{ n: 1.5, x: 0, someText: "x", a: [] }], { copy }),
          ).rejects.toThrow(/not a 32-bit integer/);
        }
        expect((await client.query("SELECT count(*)::int AS n FROM written_probe")).rows[0].n).toBe(
          rows.length,
        );
      } finally {
        client.release();
      }
      const { rows: back } = await pool.query(
        'SELECT n, x, some_text AS "someText", a FROM written_probe ORDER BY n',
      );
      expect(back).toEqual([...rows].sort((a, b) => a.n - b.n));
    });
  }
});
