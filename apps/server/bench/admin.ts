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
