// Development: `pnpm --filter @gmi/server db:diff NAME` writes prisma/migrations/<stamp>_NAME with
// the SQL for the change of schema.prisma since the last migration (any reachable PostgreSQL will do).
import { createMigration } from "../src/db/migrate.js";

const name = process.argv[2];
if (!name) {
  console.error("usage: db:diff NAME");
  process.exit(2);
}
const url = process.env.TEST_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
const folder = await createMigration(url, name);
console.log(folder ? `wrote ${folder}` : "schema unchanged: no migration written");
