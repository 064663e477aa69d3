import { describe, expect, it } from "vitest";
import { createTestDatabase } from "../../test/helpers/database.js";
import { prepared } from "../data/sql.js";
import { openPool } from "./open.js";

describe("openPool", () => {
  it("runs one named statement on several connections at once, checked out or not", async () => {
    // On the embedded database (no TEST_DATABASE_URL) every connection is one PGlite session,
    // where a second connection preparing the same name failed ("already exists").
    const test = await createTestDatabase();
    const pool = openPool(test.url, { embedded: test.db.embedded });
    try {
      const [a, b] = await Promise.all([pool.connect(), pool.connect()]);
      const statement = () => prepared("SELECT $1::int + 1 AS n", [1]);
      try {
        const answers = await Promise.all([
          a.query(statement()),
          b.query(statement()),
          pool.query(statement()),
        ]);
        expect(answers.map((r) => r.rows[0].n)).toEqual([2, 2, 2]);
      } finally {
        a.release();
        b.release();
      }
    } finally {
      await pool.end();
      await test.drop();
    }
  });
});
