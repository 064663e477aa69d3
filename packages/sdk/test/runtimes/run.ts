import { mkdir, rm, symlink, writeFile } from "node:fs/promises";
import path from "node:path";
import { startRealServer } from "../e2e/real-server.ts";
import { runChromium, runProcess, runWorkerd, startPageServer } from "./hosts.ts";
import { type RuntimePackage, runtimeBinary } from "./install.ts";
import type { SmokeEnv, SmokeResult } from "./smoke.ts";

// Plain, erasable TypeScript with node: imports (and the SDK's dev dependencies, loaded when
// needed): `pnpm test:runtimes` runs it on Node 24's own type stripping.

/**
 * The runtime matrix: one smoke (smoke.ts) on every runtime the SDK claims, against the real server
 * of this repository: Node 20, 22 and 24, Bun and Deno (their npm packages), workerd (Cloudflare's
 * Workers runtime) and Chromium on a Vite-built page from another origin. The runtimes run at
 * once: they share the Free-plan organization whose one-minute window gives each its 429, so the
 * whole run waits for one window, not one per runtime. A runtime that cannot start fails.
 */
const sdkDir = path.resolve(import.meta.dirname, "../..");
const scratch = path.join(sdkDir, "test-artifacts", "runtimes");
const TIMEOUT_MS = 150_000;

interface Runtime {
  name: string;
  /** How its SDK names it in `X-GMI-Client` (runtime/version), checked in the server's log. */
  client: RegExp;
  run: (env: SmokeEnv) => Promise<SmokeResult>;
}

const inProcess =
  (binary: () => string, args: string[] = []) =>
  (env: SmokeEnv) =>
    runProcess(binary(), [...args, "entry.mjs"], scratch, env, TIMEOUT_MS);
const installed = (name: RuntimePackage) => () => runtimeBinary(name);

const runtimes = (origin: string): Runtime[] => [
  { name: "node 20", client: /node\/20\./, run: inProcess(installed("node20")) },
  { name: "node 22", client: /node\/22\./, run: inProcess(installed("node22")) },
  { name: "node 24", client: /node\/24\./, run: inProcess(() => process.execPath) },
  { name: "bun", client: /bun\/1\./, run: inProcess(installed("bun")) },
  {
    name: "deno",
    client: /deno\/2\./,
    run: inProcess(installed("deno"), ["run", "--allow-env", "--allow-net", "--allow-read"]),
  },
  {
    name: "workerd",
    client: /workerd\/unknown/,
    run: (env) => runWorkerd(runtimeBinary("workerd"), scratch, env, TIMEOUT_MS),
  },
  { name: "chromium", client: /chrome\/\d+/, run: (env) => runChromium(origin, env, TIMEOUT_MS) },
];

const ENTRY = `import * as sdk from "@gmi/sdk";
import { smoke } from "./smoke.mjs";
console.log(JSON.stringify(await smoke(sdk, JSON.parse(process.env.GMI_SMOKE_ENV))));
`;
const WORKER = `import * as sdk from "@gmi/sdk";
import { smoke } from "./smoke.mjs";
export default { fetch: async (_request, env) => Response.json(await smoke(sdk, JSON.parse(env.GMI_SMOKE_ENV))) };
`;
const PAGE_SCRIPT = `import * as sdk from "@gmi/sdk";
import { smoke } from "../smoke.mjs";
const env = JSON.parse(decodeURIComponent(location.hash.slice(1)));
smoke(sdk, env).then(
  (result) => { globalThis.smokeResult = result; },
  (error) => { globalThis.smokeResult = { sdk: "", checks: [{ name: "start", ok: false, detail: String(error) }] }; },
);
`;

/**
 * The scratch project every runtime loads the SDK from as a user would: `@gmi/sdk` in its
 * node_modules (this package, built), the smoke as plain JavaScript, an entry per kind of host.
 */
const prepare = async () => {
  const esbuild = await import("esbuild");
  const vite = await import("vite");
  await rm(scratch, { recursive: true, force: true });
  await mkdir(path.join(scratch, "node_modules", "@gmi"), { recursive: true });
  await mkdir(path.join(scratch, "page"), { recursive: true });
  await symlink(sdkDir, path.join(scratch, "node_modules", "@gmi", "sdk"));
  await writeFile(
    path.join(scratch, "package.json"),
    JSON.stringify({ name: "runtimes", private: true, type: "module" }),
  );
  await esbuild.build({
    entryPoints: [path.join(import.meta.dirname, "smoke.ts")],
    outfile: path.join(scratch, "smoke.mjs"),
    format: "esm",
    target: "es2022",
    logLevel: "error",
  });
  await writeFile(path.join(scratch, "entry.mjs"), ENTRY);
  await writeFile(path.join(scratch, "worker-entry.mjs"), WORKER);
  await esbuild.build({
    entryPoints: [path.join(scratch, "worker-entry.mjs")],
    outfile: path.join(scratch, "worker.mjs"),
    bundle: true,
    format: "esm",
    platform: "neutral",
    conditions: ["workerd", "worker", "browser"],
    mainFields: ["module", "main"],
    logLevel: "error",
  });
  await writeFile(
    path.join(scratch, "page", "index.html"),
    `<!doctype html><title>smoke</title><script type="module" src="./main.mjs"></script>`,
  );
  await writeFile(path.join(scratch, "page", "main.mjs"), PAGE_SCRIPT);
  // Vite sets NODE_ENV=production for its build; the server started next must not inherit it.
  const nodeEnv = process.env.NODE_ENV;
  await vite.build({
    root: path.join(scratch, "page"),
    base: "./",
    logLevel: "error",
    configFile: false,
    build: { outDir: "dist", emptyOutDir: true },
  });
  if (nodeEnv === undefined) delete process.env.NODE_ENV;
  else process.env.NODE_ENV = nodeEnv;
};

const main = async () => {
  const started = Date.now();
  await prepare();
  const page = await startPageServer(path.join(scratch, "page", "dist"));
  const server = await startRealServer({
    postgresAdminUrl: process.env.TEST_DATABASE_URL || undefined,
    env: { CORS_ORIGINS: page.origin, LOG_LEVEL: "info" },
  });
  const freeKey = server.keys.free;
  console.log(`runtimes: server ready in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  const list = runtimes(page.origin);
  const outcomes = await Promise.all(
    list.map(async (runtime) => {
      const begun = Date.now();
      const env: SmokeEnv = {
        baseUrl: server.baseUrl,
        apiKey: server.apiKey,
        freeKey: freeKey ?? "",
        browser: runtime.name === "chromium",
        runtime: runtime.name.replace(" ", ""),
      };
      const result = await runtime
        .run(env)
        .catch((error: unknown) => (error instanceof Error ? error : new Error(String(error))));
      return { runtime, result, seconds: (Date.now() - begun) / 1000 };
    }),
  );
  await server.stop(); // its log is buffered: read once it has flushed at exit
  const log = server.output();
  page.server.close();

  let passed = 0;
  for (const { runtime, result, seconds } of outcomes) {
    const checks =
      result instanceof Error ? [{ name: "start", ok: false, detail: result.message }] : [...result.checks];
    if (!(result instanceof Error)) {
      // The server's access line names the SDK and this runtime, and the retry of the 429.
      const lines = log
        .split("\n")
        .filter((l) => l.includes(`"client":"${result.sdk} `) && runtime.client.test(l));
      checks.push({
        name: "identified in the server's log",
        ok: lines.length > 0 && lines.some((l) => l.includes('"retry":1')),
        detail: `${lines.length} access lines, ${lines.filter((l) => l.includes('"retry":')).length} of them retries`,
      });
    }
    const ok = checks.length > 1 && checks.every((c) => c.ok);
    if (ok) passed++;
    console.log(`${ok ? "✓" : "✗"} ${runtime.name} (${seconds.toFixed(1)} s)`);
    for (const c of checks) console.log(`    ${c.ok ? "ok  " : "FAIL"} ${c.name}: ${c.detail}`);
  }
  console.log(`runtimes: the matrix took ${((Date.now() - started) / 1000).toFixed(0)} s`);
  // The closing line CI reads, alone on its line.
  console.log(`runtimes: ${passed} passed, ${outcomes.length - passed} failed`);
  process.exitCode = passed === outcomes.length ? 0 : 1;
};

await main();
