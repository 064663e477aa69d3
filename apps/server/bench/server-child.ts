/**
 * The real server as the traffic benches run it: `src/main.ts` in a child process with production
 * settings (NODE_ENV=production, its request log written to /dev/null, Redis windows, PostgreSQL),
 * on a free port, started and stopped by the bench.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { openSync } from "node:fs";
import { createServer } from "node:net";
import path from "node:path";
import { fileURLToPath } from "node:url";

const serverRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

export const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() => resolve(typeof address === "object" && address ? address.port : 0));
    });
  });

const waitForReady = async (url: string, child: ChildProcess) => {
  for (let i = 0; i < 600; i++) {
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}`);
    try {
      if ((await fetch(`${url}/readyz`)).ok) return;
    } catch {
      // Not listening yet.
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error("server not ready after 60 s");
};

export type ServerChild = { child: ChildProcess; url: string; stop(): Promise<void> };

/**
 * Starts src/main.ts as deployed. `cpuProfileDir`: the server writes a V8 CPU profile there at
 * exit. `logFile`: its request log is appended there instead. `env`: more settings
 * (METRICS_TOKEN, DATABASE_READ_URL...).
 */
export const startServer = async (options: {
  /** The entry, relative to apps/server (default src/main.ts). */
  entry?: string | undefined;
  databaseUrl: string;
  redisUrl: string;
  redisPrefix: string;
  cpuProfileDir?: string | undefined;
  logFile?: string | undefined;
  env?: Record<string, string>;
}): Promise<ServerChild> => {
  const port = await freePort();
  const stderr: Buffer[] = [];
  const profile = options.cpuProfileDir ? ["--cpu-prof", `--cpu-prof-dir=${options.cpuProfileDir}`] : [];
  const child = spawn(process.execPath, [...process.execArgv, ...profile, options.entry ?? "src/main.ts"], {
    cwd: serverRoot,
    env: {
      ...process.env,
      NODE_ENV: "production",
      DATABASE_URL: options.databaseUrl,
      REDIS_URL: options.redisUrl,
      REDIS_KEY_PREFIX: options.redisPrefix,
      CURSOR_SECRET: randomBytes(32).toString("hex"),
      HOST: "127.0.0.1",
      PORT: String(port),
      // The scheduled rollup would run during the measurement on some clocks.
      ROLLUP_SCHEDULE: "off",
      ...options.env,
    },
    stdio: ["ignore", openSync(options.logFile ?? "/dev/null", "a"), "pipe"],
  });
  child.stderr?.on("data", (chunk: Buffer) => stderr.push(chunk));
  const url = `http://127.0.0.1:${port}`;
  try {
    await waitForReady(url, child);
  } catch (error) {
    child.kill("SIGKILL");
    throw new Error(`${String(error)}\n${Buffer.concat(stderr).toString()}`);
  }
  const stop = () =>
    new Promise<void>((resolve) => {
      if (child.exitCode !== null) return resolve();
      child.once("exit", () => resolve());
      child.kill("SIGTERM");
    });
  return { child, url, stop };
};
