import { describe, expect, it } from "vitest";
import { copyNumber, readRows } from "../src/data/copy-out.js";
import { useTestDatabase, withClient } from "./helpers/setup.js";

const db = useTestDatabase({ catalog: false });

/** Text COPY must escape, characters outside the BMP, and text that only looks like an escape. */
const TEXTS = [
  "plain",
  "tab\there",
  "new\nline",
  "back\\slash",
  "return\r",
  "\b\f\v",
  "\\N",
  "zelda \u{1F3AE} ₩",
  "",
  "a\\tb",
];

describe.each([true, false])("readRows, copy: %s", (copy) => {
  it("reads back every text as PostgreSQL holds it, NULL as null, in the query's order", async ({ skip }) => {
    if (copy && db().embedded) skip();
    const rows = await withClient(db(), (client) =>
      readRows(
        client,
        `SELECT ord, t, NULL::text AS nothing FROM unnest(ARRAY[${TEXTS.map((_, i) => `$t${i}$${TEXTS[i]}$t${i}$`).join(", ")}]::text[]) WITH ORDINALITY AS x(t, ord) ORDER BY ord`,
        { copy },
      ),
    );
    expect(rows).toEqual(TEXTS.map((t, i) => [String(i + 1), t, null]));
  });

  it("reads many rows across chunk boundaries, multi-byte characters included", async ({ skip }) => {
    if (copy && db().embedded) skip();
    const rows = await withClient(db(), (client) =>
      readRows(
        client,
        "SELECT n, repeat('é\u{1F3AE}', n % 50), n::float8 / 3 FROM generate_series(1, 20000) AS n",
        { copy },
      ),
    );
    expect(rows).toHaveLength(20_000);
    expect(rows[19_999]).toEqual(["20000", "é\u{1F3AE}".repeat(0), String(20_000 / 3)]);
    expect(rows.every(([n, text]) => text === "é\u{1F3AE}".repeat(Number(n) % 50))).toBe(true);
  });

  it("returns no rows for an empty result", async ({ skip }) => {
    if (copy && db().embedded) skip();
    expect(await withClient(db(), (client) => readRows(client, "SELECT 1 WHERE false", { copy }))).toEqual(
      [],
    );
  });
});

it("reads numeric fields, NULL as 0", () => {
  expect([copyNumber("42"), copyNumber("-1.5"), copyNumber(null), copyNumber(undefined)]).toEqual([
    42, -1.5, 0, 0,
  ]);
});
