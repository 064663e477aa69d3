import { type ChildProcess, spawn } from "node:child_process";
import { readFile, writeFile } from "node:fs/promises";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import type { SmokeEnv, SmokeResult } from "./smoke.ts";

// Plain, erasable TypeScript: run.ts runs on Node's own type stripping.

/** A child process run to its end (killed at `timeoutMs`); its last stdout line is the smoke's JSON. */
export const runProcess = (command: string, args: string[], cwd: string, env: SmokeEnv, timeoutMs: number) =>
  new Promise<SmokeResult>((resolve, reject) => {
    const child = spawn(command, args, {
      cwd,
      env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "", GMI_SMOKE_ENV: JSON.stringify(env) },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let out = "";
    child.stdout.on("data", (chunk: Buffer) => (out += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (out += chunk.toString()));
    const timer = setTimeout(() => child.kill("SIGKILL"), timeoutMs);
    child.once("error", (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.once("exit", (code, signal) => {
      clearTimeout(timer);
      const last = out.trim().split("\n").at(-1) ?? "";
      try {
        resolve(JSON.parse(last) as SmokeResult);
      } catch {
        reject(new Error(`exited ${code ?? signal} without a result:\n${out.slice(-2000)}`));
      }
    });
  });

/** A port free now, for a host that cannot be told to pick its own (workerd). */
const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const probe = createServer();
    probe.once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const { port } = probe.address() as AddressInfo;
      probe.close(() => resolve(port));
    });
  });

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * workerd, Cloudflare's Workers runtime: the bundled worker (worker.mjs) served on a free port with
 * loopback reachable (the server is on 127.0.0.1); one GET runs the smoke and answers its JSON.
 */
export const runWorkerd = async (binary: string, dir: string, env: SmokeEnv, timeoutMs: number) => {
  const port = await freePort();
  const config = `using Workerd = import "/workerd/workerd.capnp";
const config :Workerd.Config = (
  services = [
    (name = "main", worker = .smoke),
    (name = "internet", network = (allow = ["public", "private", "local"])),
  ],
  sockets = [(name = "http", address = "127.0.0.1:${port}", http = (), service = "main")],
);
const smoke :Workerd.Worker = (
  modules = [(name = "worker.mjs", esModule = embed "worker.mjs")],
  compatibilityDate = "2025-09-01",
  bindings = [(name = "GMI_SMOKE_ENV", text = ${JSON.stringify(JSON.stringify(env))})],
);
`;
  await writeFile(path.join(dir, "worker.capnp"), config);
  const child: ChildProcess = spawn(binary, ["serve", "worker.capnp"], {
    cwd: dir,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let out = "";
  child.stdout?.on("data", (chunk: Buffer) => (out += chunk.toString()));
  child.stderr?.on("data", (chunk: Buffer) => (out += chunk.toString()));
  try {
    const until = Date.now() + timeoutMs;
    for (;;) {
      if (child.exitCode !== null) throw new Error(`workerd exited ${child.exitCode}:\n${out}`);
      try {
        const response = await fetch(`http://127.0.0.1:${port}/`, {
          signal: AbortSignal.timeout(until - Date.now()),
        });
        if (!response.ok)
          throw new Error(`workerd answered ${response.status}: ${await response.text()}\n${out}`);
        return (await response.json()) as SmokeResult;
      } catch (error) {
        // Refused until workerd listens; anything else is the answer.
        if ((error as { cause?: { code?: string } }).cause?.code !== "ECONNREFUSED" || Date.now() > until)
          throw error;
        await sleep(100);
      }
    }
  } finally {
    child.kill("SIGKILL");
  }
};

const TYPES: Record<string, string> = {
  ".html": "text/html",
  ".js": "text/javascript",
  ".mjs": "text/javascript",
};

/** The browser page's own origin: a static server of the Vite build, so the API is cross-origin (CORS). */
export const startPageServer = async (root: string): Promise<{ origin: string; server: Server }> => {
  const server = createServer(async (request, response) => {
    const name = path.normalize(decodeURIComponent(new URL(request.url ?? "/", "http://x").pathname));
    const file = path.join(root, name === "/" ? "index.html" : name);
    try {
      const body = await readFile(file);
      response.writeHead(200, { "content-type": TYPES[path.extname(file)] ?? "application/octet-stream" });
      response.end(body);
    } catch {
      response.writeHead(404).end();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
};

/** Debian's Chromium, headless through playwright-core (no browser download), on the built page. */
export const runChromium = async (origin: string, env: SmokeEnv, timeoutMs: number) => {
  const { chromium } = await import("playwright-core");
  const browser = await chromium.launch({ executablePath: "/usr/bin/chromium", args: ["--no-sandbox"] });
  try {
    const page = await browser.newPage();
    const errors: string[] = [];
    page.on("pageerror", (error) => errors.push(String(error)));
    await page.goto(`${origin}/#${encodeURIComponent(JSON.stringify(env))}`);
    const handle = await page
      .waitForFunction(() => (globalThis as { smokeResult?: unknown }).smokeResult, undefined, {
        timeout: timeoutMs,
      })
      .catch((error: unknown) => {
        throw new Error(`${String(error)}\n${errors.join("\n")}`);
      });
    return (await handle.jsonValue()) as SmokeResult;
  } finally {
    await browser.close();
  }
};
