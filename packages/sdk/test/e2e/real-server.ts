import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtemp, rm } from "node:fs/promises";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

// Plain, erasable TypeScript with only node: imports: bench/iterate.ts loads this file with Node's
// own type stripping, the e2e setup through vitest.

const serverDir = fileURLToPath(new URL("../../../../apps/server", import.meta.url));
/** Resolves and loads from the server's package (tsx, pg: this package depends on neither). */
const serverRequire = createRequire(path.join(serverDir, "package.json"));

export interface RealServer {
  baseUrl: string;
  /** The demo enterprise key (largest pages, highest rate limit). */
  apiKey: string;
  /** The demo key of each plan (`free`, `starter`, `pro`, `enterprise`), each its own organization. */
  keys: Record<string, string>;
  /** Everything the server has printed so far (its log lines at the `LOG_LEVEL` asked for). */
  output: () => string;
  stop: () => Promise<void>;
  /** Runs `gmi <args>` on the server's database (e.g. `["rollup", "--days", "14"]`) to its end. */
  gmi: (args: string[]) => Promise<void>;
}

export interface RealServerOptions {
  /**
   * An NDJSON file (docs/data-format.md) loaded with `pnpm gmi import` before the first start. The
   * server then finds a catalog and generates no demo marketplace (its demo keys are still printed).
   */
  importFirst?: string;
  /**
   * A PostgreSQL admin URL: the server then runs on a database of its own, created there (migrated
   * with `pnpm gmi migrate`) and dropped at stop, instead of the embedded one. The embedded database
   * answers in the server's own thread, so its queries stall requests: right for a first look,
   * noisy for a benchmark.
   */
  postgresAdminUrl?: string;
  /** More environment for the server (`CORS_ORIGINS`, `LOG_LEVEL`: warn unless given). */
  env?: Record<string, string>;
}

/** One statement on the admin URL, through the server's own `pg`. */
const adminQuery = async (adminUrl: string, sql: string) => {
  const pg = serverRequire("pg") as {
    Client: new (options: {
      connectionString: string;
    }) => {
      connect(): Promise<void>;
      query(sql: string): Promise<unknown>;
      end(): Promise<void>;
    };
  };
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
};

/**
 * Starts the real server of this repository exactly as a new user does (`pnpm start` with no
 * DATABASE_URL): embedded PostgreSQL in a temporary folder, demo marketplace generated and rolled up
 * on first start, demo keys printed (with `postgresAdminUrl`, the same on a PostgreSQL database of
 * its own). The base URL and the enterprise key are read from its output.
 */
export const startRealServer = async (options: RealServerOptions = {}): Promise<RealServer> => {
  const dataDir = await mkdtemp(path.join(tmpdir(), "gmi-sdk-e2e-"));
  const tsx = serverRequire.resolve("tsx/cli");
  const admin = options.postgresAdminUrl;
  const database = `gmi_sdk_bench_${randomBytes(4).toString("hex")}`;
  let databaseUrl = "";
  if (admin) {
    await adminQuery(admin, `CREATE DATABASE ${database}`);
    const url = new URL(admin);
    url.pathname = `/${database}`;
    databaseUrl = url.toString();
  }
  const dropDatabase = async () => {
    if (admin) await adminQuery(admin, `DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
  };
  const env = {
    ...process.env,
    DATABASE_URL: databaseUrl,
    REDIS_URL: "",
    DATA_DIR: dataDir,
    PORT: "0",
    LOG_LEVEL: "warn",
    ...options.env,
  };
  try {
    if (databaseUrl) await runToEnd(tsx, ["src/cli/main.ts", "migrate"], env);
    if (options.importFirst) await runToEnd(tsx, ["src/cli/main.ts", "import", options.importFirst], env);
  } catch (error) {
    await dropDatabase();
    throw error;
  }
  const server = spawn(process.execPath, [tsx, "src/main.ts"], {
    cwd: serverDir,
    env,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  const started = await new Promise<{ baseUrl: string; apiKey: string; keys: Record<string, string> }>(
    (resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`server did not start in time:\n${output}`)), 240_000);
      const onData = (chunk: Buffer) => {
        output += chunk.toString();
        const url = /listening on (http:\/\/\S+)/.exec(output)?.[1];
        const key = /enterprise\s+(gmi_live_\S+)/.exec(output)?.[1];
        if (url && key) {
          clearTimeout(timer);
          // The keys are printed one per plan, enterprise last.
          const keys = Object.fromEntries(
            [...output.matchAll(/^\s+(\w+)\s+(gmi_live_\S+)$/gm)].map((m) => [m[1], m[2]]),
          );
          resolve({ baseUrl: url, apiKey: key, keys });
        }
      };
      server.stdout?.on("data", onData);
      server.stderr?.on("data", onData);
      server.once("exit", (code) =>
        reject(new Error(`server exited (${code}) before it was ready:\n${output}`)),
      );
    },
  ).catch(async (error: unknown) => {
    server.kill("SIGTERM");
    await dropDatabase();
    throw error;
  });
  const stop = async () => {
    const exited = new Promise((resolve) => server.once("exit", resolve));
    server.kill("SIGTERM");
    await exited;
    await rm(dataDir, { recursive: true, force: true });
    await dropDatabase();
  };
  const gmi = (args: string[]) => runToEnd(tsx, ["src/cli/main.ts", ...args], env);
  return { ...started, stop, gmi, output: () => output };
};

/** Runs a command of the server's package to its end; rejects with its output when it fails. */
const runToEnd = (tsx: string, args: string[], env: NodeJS.ProcessEnv) =>
  new Promise<void>((resolve, reject) => {
    const child = spawn(process.execPath, [tsx, ...args], {
      cwd: serverDir,
      env,
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    child.stdout?.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.stderr?.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.once("error", reject);
    child.once("exit", (code) =>
      code === 0 ? resolve() : reject(new Error(`gmi ${args.slice(1).join(" ")} exited ${code}:\n${output}`)),
    );
  });
