import { randomBytes } from "node:crypto";
import pg from "pg";

/** The PostgreSQL admin URL the benches create and drop their own databases with. */
export const adminUrl = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL;

/** Runs one statement (CREATE or DROP DATABASE) on the admin connection. */
export const adminQuery = async (sql: string) => {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
};

/** A database of the bench's own on the admin server (`prefix_<random>`): its name, URL and drop. */
export const createBenchDatabase = async (prefix: string) => {
  if (!adminUrl) throw new Error("Set BENCH_DATABASE_URL or TEST_DATABASE_URL (a PostgreSQL admin URL)");
  const name = `${prefix}_${randomBytes(4).toString("hex")}`;
  await adminQuery(`CREATE DATABASE ${name}`);
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    name,
    url: url.toString(),
    drop: () => adminQuery(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`),
  };
};
