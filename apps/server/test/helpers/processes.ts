import { type ChildProcess, spawn } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { REPO_ROOT } from "../../src/config.js";
import { childOutputScanner } from "./log-capture.js";

/** The server package's folder: children run there, as `pnpm start` and `pnpm gmi` run them. */
export const serverDir = fileURLToPath(new URL("../..", import.meta.url));

/**
 * The environment of a child server or `gmi` command: only what the test gives, on top of the
 * machine's PATH and the like (never the runner's own DATABASE_URL, DATA_DIR or pnpm's INIT_CWD).
 */
export const childEnv = (env: Record<string, string>): NodeJS.ProcessEnv => {
  const base = Object.fromEntries(
    Object.entries(process.env).filter(
      ([name]) =>
        !/^(DATABASE_URL|DATA_DIR|REDIS_URL|PORT|HOST|NODE_ENV|GMI_CLI_NAME|INIT_CWD)$/.test(name) &&
        !name.startsWith("npm_"),
    ),
  );
  return { ...base, LOG_LEVEL: "warn", ...env };
};

export type Ran = { code: number | null; stdout: string; stderr: string };

/** Runs `gmi ARGS` as its own process (`node --import tsx src/cli/main.ts`) to its end. */
export const runGmi = (args: string[], env: Record<string, string>, timeoutMs = 120_000): Promise<Ran> =>
  new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ["--import", "tsx", "src/cli/main.ts", ...args], {
      cwd: serverDir,
      env: childEnv(env),
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => {
      stdout += chunk.toString();
    });
    child.stderr.on("data", (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new Error(`gmi ${args.join(" ")} did not finish in ${timeoutMs} ms:\n${stdout}${stderr}`));
    }, timeoutMs);
    child.once("error", reject);
    child.once("exit", (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });

export type ServerProcess = {
  child: ChildProcess;
  baseUrl: string;
  output(): string;
  /** Resolves with the exit code once the process has ended. */
  exited: Promise<number | null>;
};

/**
 * How a test starts the server: `node` runs `node --import tsx src/main.ts` (one process, so a
 * signal reaches the server itself); `pnpm start` runs it as a person does, from the repository,
 * in a process group of its own as a terminal's foreground job (signal it with `-child.pid`).
 */
const SERVER_COMMANDS = {
  node: { file: process.execPath, args: ["--import", "tsx", "src/main.ts"], cwd: serverDir, group: false },
  "pnpm start": { file: path.join(REPO_ROOT, "scripts/pnpm"), args: ["start"], cwd: REPO_ROOT, group: true },
};

/** Starts the server and resolves once its whole banner is out; rejects with its output if it exits first. */
export const startServerProcess = (
  env: Record<string, string>,
  timeoutMs = 180_000,
  how: keyof typeof SERVER_COMMANDS = "node",
): Promise<ServerProcess> =>
  new Promise((resolve, reject) => {
    const command = SERVER_COMMANDS[how];
    const child = spawn(command.file, command.args, {
      cwd: command.cwd,
      detached: command.group,
      env: childEnv({ PORT: "0", ...env }),
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    const exited = new Promise<number | null>((done) => child.once("exit", (code) => done(code)));
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new Error(`the server did not start in ${timeoutMs} ms:\n${output}`));
    }, timeoutMs);
    const scan = childOutputScanner();
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      scan(chunk);
      // The whole banner: it ends with an empty line.
      const baseUrl = /listening on (http:\/\/\S+)[\s\S]*?\n\n/.exec(output)?.[1];
      if (baseUrl) {
        clearTimeout(timer);
        resolve({ child, baseUrl, output: () => output, exited });
      }
    };
    child.stdout.on("data", onData);
    child.stderr.on("data", onData);
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`the server exited (${code}) before it listened:\n${output}`));
    });
  });
