import { describe, expect, it } from "vitest";
import { readKeyedNumbers } from "../src/db/copy/copy-out.js";
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

/** Numbers as PostgreSQL prints them: integers of every size, fractions, exponents, NULL. */
const NUMBERS = [
  "0",
  "-7",
  "42",
  "999999999999999",
  "-9007199254740991",
  "12345678901234567890",
  "-1.5",
  "1e+300",
  "0.3333",
];

describe.each([true, false])("readKeyedNumbers, copy: %s", (copy) => {
  it("reads every key as PostgreSQL holds it and every number exactly, NULL as 0, in the query's order", async ({
    skip,
  }) => {
    if (copy && db().embedded) skip();
    const result = await withClient(db(), (client) =>
      readKeyedNumbers(
        client,
        `SELECT t, ord, n::float8, NULL::int AS nothing, -ord
         FROM unnest(ARRAY[${TEXTS.map((_, i) => `$t${i}$${TEXTS[i]}$t${i}$`).join(", ")}]::text[],
                     ARRAY[${TEXTS.map((_, i) => `'${NUMBERS[i % NUMBERS.length]}'`).join(", ")}]::numeric[])
           WITH ORDINALITY AS x(t, n, ord) ORDER BY ord`,
        { copy },
      ),
    );
    expect(result.keys).toEqual(TEXTS);
    expect(result.width).toBe(4);
    expect([...result.numbers]).toEqual(
      TEXTS.flatMap((_, i) => [i + 1, Number(NUMBERS[i % NUMBERS.length]), 0, -(i + 1)]),
    );
  });

  it("reads bigint sums exactly, and many rows across chunk boundaries with multi-byte keys", async ({
    skip,
  }) => {
    if (copy && db().embedded) skip();
    const result = await withClient(db(), (client) =>
      readKeyedNumbers(
        client,
        `SELECT repeat('é\u{1F3AE}', n % 50), n, (n::bigint * 1000000007)::bigint, n::float8 / 3
         FROM generate_series(1, 20000) AS n ORDER BY n`,
        { copy },
      ),
    );
    expect(result.keys).toHaveLength(20_000);
    expect(result.keys.every((key, i) => key === "é\u{1F3AE}".repeat((i + 1) % 50))).toBe(true);
    const row = (i: number) => [...result.numbers.subarray(i * 3, i * 3 + 3)];
    expect(row(19_999)).toEqual([20_000, 20_000 * 1_000_000_007, 20_000 / 3]);
    expect(row(0)).toEqual([1, 1_000_000_007, 1 / 3]);
  });

  it("returns no rows for an empty result", async ({ skip }) => {
    if (copy && db().embedded) skip();
    const result = await withClient(db(), (client) =>
      readKeyedNumbers(client, "SELECT 'k', 1 WHERE false", { copy }),
    );
    expect(result.keys).toEqual([]);
    expect(result.numbers).toHaveLength(0);
  });
});
