import type pg from "pg";
import { afterAll, beforeAll } from "vitest";
import { ensurePlans } from "../../src/data/accounts.js";
import type { Database } from "../../src/db/open.js";
import { loadFixtureCatalog } from "./catalog.js";
import type { TestDatabase } from "./database.js";
import { createTestDatabase } from "./database.js";

/** One migrated database per test file, with the plans and the fixture catalog loaded. */
export const useTestDatabase = (options: { catalog?: boolean } = {}): (() => Database) => {
  let test: TestDatabase | undefined;
  beforeAll(async () => {
    test = await createTestDatabase();
    await ensurePlans(test.db.pool);
    if (options.catalog !== false) await loadFixtureCatalog(test.db.pool);
  });
  afterAll(async () => {
    await test?.drop();
  });
  return () => {
    if (!test) throw new Error("database not ready");
    return test.db;
  };
};

export const testDatabaseUrl = () => process.env.TEST_DATABASE_URL;
export const testRedisUrl = () => process.env.TEST_REDIS_URL;

/** Runs `run` on a client checked out of `db`'s pool, released afterwards. */
export const withClient = async <T>(db: Database, run: (client: pg.PoolClient) => Promise<T>): Promise<T> => {
  const client = await db.pool.connect();
  try {
    return await run(client);
  } finally {
    client.release();
  }
};
