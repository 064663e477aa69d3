import { existsSync } from "node:fs";
import { mkdir, readdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { MigrationList } from "@prisma/schema-engine-wasm";
import pg from "pg";
import { openSchemaEngine } from "./schema-engine.js";

const serverRoot = fileURLToPath(new URL("../..", import.meta.url));
export const SCHEMA_PATH = path.join(serverRoot, "prisma", "schema.prisma");
export const MIGRATIONS_DIR = path.join(serverRoot, "prisma", "migrations");
const NO_FILTER = { externalTables: [], externalEnums: [] };

const readSchema = async () => ({ path: SCHEMA_PATH, content: await readFile(SCHEMA_PATH, "utf8") });

/** The migration folders, oldest first (their names start with a sortable timestamp). */
export const migrationNames = async (dir = MIGRATIONS_DIR): Promise<string[]> => {
  if (!existsSync(dir)) return [];
  const entries = await readdir(dir, { withFileTypes: true });
  return entries
    .filter((e) => e.isDirectory())
    .map((e) => e.name)
    .sort();
};

const migrationList = async (dir = MIGRATIONS_DIR): Promise<MigrationList> => {
  const lockPath = path.join(dir, "migration_lock.toml");
  const names = await migrationNames(dir);
  return {
    baseDir: dir,
    lockfile: { path: lockPath, content: existsSync(lockPath) ? await readFile(lockPath, "utf8") : null },
    shadowDbInitScript: "",
    migrationDirectories: await Promise.all(
      names.map(async (name) => ({
        // The folder name, relative to baseDir: it becomes `migration_name`, as with the Prisma CLI.
        path: name,
        migrationFile: {
          path: "migration.sql",
          content: {
            tag: "ok" as const,
            value: await readFile(path.join(dir, name, "migration.sql"), "utf8"),
          },
        },
      })),
    ),
  };
};

/** Applies every migration not yet applied; returns the names it applied. */
export const migrate = async (url: string): Promise<{ applied: string[] }> => {
  const session = await openSchemaEngine(url, await readSchema());
  try {
    const result = await session.engine.applyMigrations({
      migrationsList: await migrationList(),
      filters: NO_FILTER,
    });
    return { applied: result.appliedMigrationNames };
  } finally {
    await session.close();
  }
};

/** Migrations in the folder that the database has not completed (all of them on an empty database). */
export const pendingMigrations = async (url: string): Promise<string[]> => {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const table = await client.query<{ exists: boolean }>(
      "SELECT to_regclass('public._prisma_migrations') IS NOT NULL AS exists",
    );
    const applied = new Set<string>();
    if (table.rows[0]?.exists) {
      const rows = await client.query<{ migration_name: string }>(
        "SELECT migration_name FROM _prisma_migrations WHERE finished_at IS NOT NULL AND rolled_back_at IS NULL",
      );
      for (const row of rows.rows) applied.add(row.migration_name);
    }
    return (await migrationNames()).filter((name) => !applied.has(name));
  } finally {
    await client.end();
  }
};

const SNAPSHOT_FILE = "schema.snapshot.prisma";

/**
 * Writes a new migration from the change of schema.prisma since the last migration, whose folder
 * keeps a snapshot of the schema it was made from. We diff schema file to schema file because the
 * engine's live-database diff cannot read PostgreSQL's catalog through the adapter ("Column type
 * 'char' could not be deserialized") and diffing from the migrations needs a shadow database.
 * Returns the folder, or null when nothing changed.
 */
export const createMigration = async (url: string, name: string): Promise<string | null> => {
  const schema = await readSchema();
  const last = (await migrationNames()).at(-1);
  const previous = last ? path.join(MIGRATIONS_DIR, last, SNAPSHOT_FILE) : undefined;
  // The engine connects at start although a file-to-file diff reads nothing from the database.
  const session = await openSchemaEngine(url, schema);
  try {
    const diff = await session.engine.diff({
      from: previous
        ? { tag: "schemaDatamodel", files: [{ path: previous, content: await readFile(previous, "utf8") }] }
        : { tag: "empty" },
      to: { tag: "schemaDatamodel", files: [schema] },
      script: true,
      exitCode: null,
      filters: NO_FILTER,
    });
    const sql = diff.stdout ?? "";
    if (!/\b(CREATE|ALTER|DROP)\b/.test(sql)) return null;
    const stamp = new Date().toISOString().replace(/\D/g, "").slice(0, 14);
    const folder = path.join(MIGRATIONS_DIR, `${stamp}_${name.replace(/[^a-z0-9_]+/gi, "_").toLowerCase()}`);
    await mkdir(folder, { recursive: true });
    await writeFile(path.join(folder, "migration.sql"), sql);
    await writeFile(path.join(folder, SNAPSHOT_FILE), schema.content);
    const lock = path.join(MIGRATIONS_DIR, "migration_lock.toml");
    if (!existsSync(lock)) await writeFile(lock, 'provider = "postgresql"\n');
    return folder;
  } finally {
    await session.close();
  }
};
