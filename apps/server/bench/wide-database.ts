/**
 * The database of the wide benches (bench:wide, bench:cold): the demo marketplace with its last 31
 * dates rolled up, seeded once into a template database and copied per run; its 20 metered keys;
 * what the wide mix draws its URLs from.
 */
import { createHash } from "node:crypto";
import type { PlanSlug } from "@gmi/contract";
import { PLANS, SCOPES } from "@gmi/contract";
import pg from "pg";
import { createOrganization, ensurePlans } from "../src/data/accounts.js";
import { issueApiKey } from "../src/data/keys.js";
import { migrate, migrationNames } from "../src/db/migrate.js";
import { openDatabase } from "../src/db/open.js";
import { seedDemo } from "../src/demo/seed.js";
import { DEFAULT_SCORING } from "../src/domain/analytics/weights.js";
import { startPostgres } from "../test/faults/processes.js";
import type { WideCatalog } from "./wide-mix.js";

/** What the template holds: change it and a new template is seeded. */
const SEED = { scale: "small", seed: 1, endDate: "2026-11-20", rollupDays: 31 } as const;

/**
 * The 20 metered keys: five organizations per plan, on plans of the bench's own with each real
 * plan's page and batch caps (so answers are kept per cap, as they are for real customers) and its
 * kind of quota (hard-capped, or unmetered for Enterprise), but rate windows out of reach: the real
 * Free plan's 30 a minute would turn the load into 429s.
 */
export const WIDE_PLANS = (["free", "starter", "pro", "enterprise"] as const).map((plan) => ({
  slug: `wide-${plan}`,
  real: PLANS[plan],
  quota: PLANS[plan].monthly_quota === null ? null : 1_000_000_000,
}));
const KEYS_PER_PLAN = 5;

export const pgClient = async (url: string) => {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  return client;
};

/**
 * The admin server to work on: BENCH_DATABASE_URL or TEST_DATABASE_URL, or with `own` a PostgreSQL
 * of the bench's own with pg_stat_statements loaded (the shared server may not load it).
 */
export const adminServer = async (env: NodeJS.ProcessEnv, own: boolean) => {
  if (own) {
    const server = await startPostgres({
      settings: {
        shared_preload_libraries: "pg_stat_statements",
        "pg_stat_statements.track": "top",
        ...(JSON.parse(env.BENCH_PG_SETTINGS ?? "{}") as Record<string, string>),
      },
    });
    return { url: server.url, close: () => server.close() };
  }
  const url = env.BENCH_DATABASE_URL ?? env.TEST_DATABASE_URL;
  if (!url) throw new Error("Set BENCH_DATABASE_URL or TEST_DATABASE_URL (a PostgreSQL admin URL)");
  return { url, close: async () => {} };
};

const withDatabase = (adminUrl: string, name: string) => {
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return url.toString();
};

/**
 * A database of this run's own, copied from the seeded template (built first when missing, or
 * again with `fresh`: about half a minute; kept as `gmi_wide_template_<hash>`, ~200 MB). Built under
 * a temporary name and renamed when complete, so a run that dies half way leaves no template behind
 * that looks complete.
 */
export const benchDatabase = async (admin: pg.Client, adminUrl: string, fresh: boolean) => {
  const hash = createHash("sha1")
    .update(JSON.stringify({ SEED, migrations: await migrationNames() }))
    .digest("hex")
    .slice(0, 10);
  const template = `gmi_wide_template_${hash}`;
  const exists = async (name: string) =>
    (await admin.query("SELECT 1 FROM pg_database WHERE datname = $1", [name])).rowCount === 1;
  if (fresh) await admin.query(`DROP DATABASE IF EXISTS ${template} WITH (FORCE)`);
  if (!(await exists(template))) {
    const building = `${template}_building_${process.pid}`;
    await admin.query(`CREATE DATABASE ${building}`);
    const url = withDatabase(adminUrl, building);
    await migrate(url);
    const db = await openDatabase({ databaseUrl: url, dataDir: "" });
    try {
      await ensurePlans(db.pool);
      await seedDemo(db, DEFAULT_SCORING, SEED);
      await db.pool.query("VACUUM ANALYZE");
    } finally {
      await db.close();
    }
    await admin.query(`ALTER DATABASE ${building} RENAME TO ${template}`);
  }
  const name = `gmi_wide_${process.pid}_${Date.now().toString(36)}`;
  await admin.query(`CREATE DATABASE ${name} TEMPLATE ${template}`);
  return {
    name,
    url: withDatabase(adminUrl, name),
    drop: () => admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`),
  };
};

/** The plans, organizations and keys of the run: five keys per plan, Free's first, Enterprise's last. */
export const createKeys = async (sql: pg.Pool): Promise<string[]> => {
  const keys: string[] = [];
  for (const plan of WIDE_PLANS) {
    await sql.query(
      `INSERT INTO plans (slug, name, rate_limit_per_minute, rate_limit_per_day, monthly_quota, max_batch_size,
         max_page_size, overage) VALUES ($1, $1, 1000000000, 1000000000, $2, $3, $4, false)`,
      [plan.slug, plan.quota, plan.real.max_batch_size, plan.real.max_page_size],
    );
    for (let o = 0; o < KEYS_PER_PLAN; o++) {
      const org = await createOrganization(sql, { name: `${plan.slug} ${o}`, plan: plan.slug as PlanSlug });
      const issued = await issueApiKey(sql, {
        organizationId: org.id,
        clientId: null,
        name: `${plan.slug} ${o}`,
        scopes: [...SCOPES],
        expiresAt: null,
      });
      keys.push(issued.key);
    }
  }
  return keys;
};

export const readCatalog = async (sql: pg.Pool): Promise<WideCatalog> => {
  const games = await sql.query<{ id: number; slug: string; title: string }>(
    "SELECT id, marketplace_game_name AS slug, display_game_name AS title FROM games WHERE enabled ORDER BY id",
  );
  const consoles = await sql.query<{ id: number }>("SELECT id FROM consoles ORDER BY id");
  const dates = await sql.query<{ day: string }>(
    "SELECT DISTINCT to_char(date, 'YYYY-MM-DD') AS day FROM snapshots ORDER BY day DESC",
  );
  // Popularity follows a shuffled order, not id order: hot games are spread over the catalog.
  const shuffled = [...games.rows].sort(
    (a, b) => ((a.id * 2_654_435_761) % 1_000) - ((b.id * 2_654_435_761) % 1_000),
  );
  return {
    gameIds: shuffled.map((g) => g.id),
    slugs: games.rows.map((g) => g.slug),
    titles: games.rows.map((g) => g.title),
    consoleIds: consoles.rows.map((c) => c.id),
    dates: dates.rows.map((d) => d.day),
  };
};
