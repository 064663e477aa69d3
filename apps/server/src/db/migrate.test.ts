import { describe, expect, it } from "vitest";
import { createTestDatabase } from "../../test/helpers/database.js";
import { migrate, migrationNames, pendingMigrations } from "./migrate.js";

describe("migrations", () => {
  it("apply to a new database, leave nothing pending, and a second run applies nothing", async () => {
    const test = await createTestDatabase();
    try {
      const names = await migrationNames();
      expect(names.length).toBeGreaterThan(0);
      expect(await pendingMigrations(test.url)).toEqual([]);
      expect((await migrate(test.url)).applied).toEqual([]);
      const recorded = await test.db.pool.query<{ migration_name: string }>(
        "SELECT migration_name FROM _prisma_migrations ORDER BY migration_name",
      );
      // Folder names, as `prisma migrate deploy` records them, so either tool can take over.
      expect(recorded.rows.map((r) => r.migration_name)).toEqual(names);
      const tables = await test.db.pool.query("SELECT to_regclass('public.games') AS games");
      expect(tables.rows[0].games).toBe("games");
    } finally {
      await test.drop();
    }
  });

  it("report what a database lacks", async () => {
    const test = await createTestDatabase();
    try {
      await test.db.pool.query("DELETE FROM _prisma_migrations");
      expect(await pendingMigrations(test.url)).toEqual(await migrationNames());
    } finally {
      await test.drop();
    }
  });
});
