import { randomBytes } from "node:crypto";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import pg from "pg";
import { migrate } from "../../src/db/migrate.js";
import { type Database, openDatabase } from "../../src/db/open.js";

export type TestDatabase = { url: string; db: Database; drop(): Promise<void> };

/**
 * A fresh, migrated database of its own for one test file or test: a new database on the
 * PostgreSQL of `TEST_DATABASE_URL`, dropped afterwards; without that variable, an embedded
 * PostgreSQL in a temporary folder.
 */
export const createTestDatabase = async (): Promise<TestDatabase> => {
  const adminUrl = process.env.TEST_DATABASE_URL;
  if (!adminUrl) return createEmbeddedTestDatabase();

  const name = `gmi_test_${Date.now().toString(36)}_${randomBytes(4).toString("hex")}`;
  await withAdmin(adminUrl, (admin) => admin.query(`CREATE DATABASE ${name}`));
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  await migrate(url.toString());
  const db = await openDatabase({ databaseUrl: url.toString(), dataDir: "" });
  return {
    url: url.toString(),
    db,
    drop: async () => {
      await db.close();
      await withAdmin(adminUrl, (admin) => admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`));
    },
  };
};

const withAdmin = async <T>(url: string, work: (client: pg.Client) => Promise<T>): Promise<T> => {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
};

const createEmbeddedTestDatabase = async (): Promise<TestDatabase> => {
  const dataDir = await mkdtemp(path.join(tmpdir(), "gmi-test-"));
  const db = await openDatabase({ dataDir });
  await migrate(db.url);
  return {
    url: db.url,
    db,
    drop: async () => {
      await db.close();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
};
