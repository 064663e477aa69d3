import { spawn } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

// Plain, erasable TypeScript with only node: imports: bench/iterate.ts loads this file with Node's
// own type stripping, the e2e setup through vitest.

const serverDir = fileURLToPath(new URL("../../../../apps/server", import.meta.url));

export interface RealServer {
  baseUrl: string;
  /** The demo enterprise key (largest pages, highest rate limit). */
  apiKey: string;
  stop: () => Promise<void>;
}

/**
 * Starts the real server of this repository exactly as a new user does (`pnpm start` with no
 * DATABASE_URL): embedded PostgreSQL in a temporary folder, demo marketplace generated and rolled up
 * on first start, demo keys printed. The base URL and the enterprise key are read from its output.
 */
export const startRealServer = async (): Promise<RealServer> => {
  const dataDir = await mkdtemp(path.join(tmpdir(), "gmi-sdk-e2e-"));
  const tsx = createRequire(path.join(serverDir, "package.json")).resolve("tsx/cli");
  const server = spawn(process.execPath, [tsx, "src/main.ts"], {
    cwd: serverDir,
    env: { ...process.env, DATABASE_URL: "", REDIS_URL: "", DATA_DIR: dataDir, PORT: "0", LOG_LEVEL: "warn" },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  const started = await new Promise<{ baseUrl: string; apiKey: string }>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server did not start in time:\n${output}`)), 240_000);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const url = /listening on (http:\/\/\S+)/.exec(output)?.[1];
      const key = /enterprise\s+(gmi_live_\S+)/.exec(output)?.[1];
      if (url && key) {
        clearTimeout(timer);
        resolve({ baseUrl: url, apiKey: key });
      }
    };
    server.stdout?.on("data", onData);
    server.stderr?.on("data", onData);
    server.once("exit", (code) =>
      reject(new Error(`server exited (${code}) before it was ready:\n${output}`)),
    );
  });
  const stop = async () => {
    const exited = new Promise((resolve) => server.once("exit", resolve));
    server.kill("SIGTERM");
    await exited;
    await rm(dataDir, { recursive: true, force: true });
  };
  return { ...started, stop };
};
