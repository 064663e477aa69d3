import { describe, expect, it } from "vitest";
import { createTestDatabase } from "../../test/helpers/database.js";
import { testDatabaseUrl } from "../../test/helpers/setup.js";
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

  it.skipIf(!testDatabaseUrl())(
    "keeps a server's connections, and what they prepared, through a pause past pg.Pool's idle timeout",
    async () => {
      const test = await createTestDatabase();
      const server = openPool(test.url, { embedded: false, max: 2, keepIdle: true });
      const other = openPool(test.url, { embedded: false, max: 2 });
      const backends = async (pool: typeof server) => {
        const clients = await Promise.all([pool.connect(), pool.connect()]);
        try {
          const answers = await Promise.all(
            clients.map((client) => client.query(prepared("SELECT pg_backend_pid() AS pid", []))),
          );
          return answers.map((answer) => answer.rows[0].pid as number).sort();
        } finally {
          for (const client of clients) client.release();
        }
      };
      try {
        const before = await backends(server);
        await backends(other);
        // pg.Pool's default idleTimeoutMillis is 10 s.
        await new Promise((resolve) => setTimeout(resolve, 10_500));
        expect(other.totalCount).toBe(0);
        expect(server.totalCount).toBe(2);
        expect(await backends(server)).toEqual(before);
      } finally {
        await Promise.all([server.end(), other.end()]);
        await test.drop();
      }
    },
    30_000,
  );
});
