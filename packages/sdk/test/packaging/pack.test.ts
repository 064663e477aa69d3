import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

/**
 * The published artefacts, as a user gets them: both packed tarballs installed with npm into a
 * scratch project outside the workspace, imported from ESM and CommonJS, type-checked with tsc.
 * Slow (npm fetches zod, ts-rest and typescript from the registry): GMI_SKIP_PACK_TEST=1 skips it.
 */
const root = new URL("../../../../", import.meta.url).pathname;
const npm = spawnSync("npm", ["--version"], { encoding: "utf8" }).status === 0 ? "npm" : undefined;
const skip = process.env.GMI_SKIP_PACK_TEST === "1" || !npm;
const minutes = 5 * 60_000;

let scratch = "";
const run = (command: string, args: string[], cwd = scratch) =>
  execFileSync(command, args, { cwd, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"], env: process.env });

/** Runs `file` on this Node and, when the machine has one, on a Node 20 (the oldest we support). */
const nodes = () => {
  const list = [process.execPath];
  for (const candidate of ["/usr/bin/node", "/usr/local/bin/node"]) {
    const version = spawnSync(candidate, ["--version"], { encoding: "utf8" }).stdout?.trim();
    if (version?.startsWith("v20.") && !list.includes(candidate)) list.push(candidate);
  }
  return list;
};

const CLIENT_SCRIPT = `
  const page = { data: [{ id: 1, display_game_name: "Chrono Trigger" }],
    meta: { pagination: { mode: "cursor", per_page: 1, total: 1, next_cursor: null } },
    links: { next: null, prev: null } };
  const client = new sdk.GmiClient({ apiKey: "k", baseUrl: "https://api.test",
    fetch: async () => new Response(JSON.stringify(page), { headers: { "content-type": "application/json" } }) });
  const rows = [];
  for await (const row of client.games.titles()) rows.push(row.display_game_name);
  const error = new sdk.RateLimitError({ message: "m", status: 429, code: "rate_limit_exceeded", retryAfter: 3 });
  console.log(JSON.stringify({ rows, rateLimit: error instanceof sdk.GmiError, validate: typeof validate.validateResponses }));
`;

describe.skipIf(skip)("the packed packages in a scratch project", { timeout: 120_000 }, () => {
  beforeAll(() => {
    scratch = mkdtempSync(join(tmpdir(), "gmi-sdk-pack-"));
    for (const pkg of ["contract", "sdk"]) {
      const dir = join(root, "packages", pkg);
      if (!existsSync(join(dir, "dist", "index.js"))) run("pnpm", ["run", "build"], dir);
      run("pnpm", ["pack", "--pack-destination", scratch], dir);
    }
    const tarballs = readdirSync(scratch).filter((f) => f.endsWith(".tgz"));
    expect(tarballs).toHaveLength(2);
    writeFileSync(join(scratch, "package.json"), JSON.stringify({ name: "scratch", private: true }));
    run("npm", [
      "install",
      "--prefer-offline",
      "--no-audit",
      "--no-fund",
      ...tarballs.map((t) => `./${t}`),
      "typescript@5.9.3",
      "msw@3.0.5",
    ]);
  }, minutes);

  afterAll(() => {
    if (scratch) rmSync(scratch, { recursive: true, force: true });
  });

  it("imports from ESM on every Node we have (24, and 20 when present)", () => {
    writeFileSync(
      join(scratch, "esm.mjs"),
      `import * as sdk from "@gmi/sdk"; import * as validate from "@gmi/sdk/validate";\n${CLIENT_SCRIPT}`,
    );
    for (const node of nodes()) {
      const out = JSON.parse(run(node, ["esm.mjs"]));
      expect(out).toEqual({ rows: ["Chrono Trigger"], rateLimit: true, validate: "function" });
    }
  });

  it("requires from CommonJS, and the main entry pulls in neither zod nor ts-rest", () => {
    writeFileSync(
      join(scratch, "cjs.cjs"),
      `const sdk = require("@gmi/sdk");
       const loaded = Object.keys(require.cache).filter((k) => /node_modules[\\\\/](zod|@ts-rest)/.test(k));
       if (loaded.length) throw new Error("main entry loaded " + loaded.join());
       const validate = require("@gmi/sdk/validate");
       (async () => { ${CLIENT_SCRIPT} })();`,
    );
    for (const node of nodes()) {
      const out = JSON.parse(run(node, ["cjs.cjs"]));
      expect(out.rows).toEqual(["Chrono Trigger"]);
    }
  });

  it("the msw entry serves the API to the packed client, from ESM and CommonJS (msw 3: Node >= 22.12)", () => {
    const script = (load: string) => `${load}
      (async () => {
        const gmi = mocks.installGmiMocks(setupServer, { baseUrl: "https://api.test" });
        gmi.server.listen({ onUnhandledFrame: "error" });
        const client = new sdk.GmiClient({ apiKey: "k", baseUrl: "https://api.test" });
        const rows = await client.games.titles().toArray({ maxItems: 1000 });
        gmi.scenarios.expiredKey();
        const error = await client.me().catch((e) => e);
        gmi.server.close();
        console.log(JSON.stringify({ rows: rows.length, error: error instanceof sdk.AuthenticationError }));
      })();`;
    writeFileSync(
      join(scratch, "mocks.mjs"),
      script(
        `import * as sdk from "@gmi/sdk"; import * as mocks from "@gmi/sdk/msw"; import { setupServer } from "msw/node";`,
      ),
    );
    writeFileSync(
      join(scratch, "mocks.cjs"),
      script(
        `const sdk = require("@gmi/sdk"); const mocks = require("@gmi/sdk/msw"); const { setupServer } = require("msw/node");`,
      ),
    );
    for (const file of ["mocks.mjs", "mocks.cjs"]) {
      expect(JSON.parse(run(process.execPath, [file]))).toEqual({ rows: 300, error: true });
    }
  });

  it("type-checks with tsc, from ESM and CommonJS (nodenext resolution)", () => {
    const body = `
      const client = new GmiClient({ apiKey: "k", baseUrl: "https://api.test" });
      export async function top(): Promise<string[]> {
        const names: string[] = [];
        for await (const row of client.intelligence.list({ sort: "liquidity", console_id: 1 })) names.push(row.game.name);
        const first: Page<"intelligence.list"> = await client.intelligence.list();
        const period: "day" | "7d" | "30d" = first.meta.period;
        const { response } = await client.games.get(1).withResponse();
        const remaining: number | undefined = response.rateLimit?.remaining;
        const result = await client.intelligence.batch([1, 2]);
        const item = result.data[0];
        if (item && "error" in item) names.push(item.error.code);
        // @ts-expect-error not a sort of this endpoint
        client.intelligence.list({ sort: "volume" });
        return [...names, period, String(remaining)];
      }
      export const describeError = (e: unknown): string => (e instanceof GmiError ? String(e.code) : "other");
    `;
    writeFileSync(
      join(scratch, "esm.mts"),
      `import { GmiClient, GmiError, type Page } from "@gmi/sdk";\nimport { validateResponses } from "@gmi/sdk/validate";\nvalidateResponses();\n${body}`,
    );
    writeFileSync(
      join(scratch, "cjs.cts"),
      `import { GmiClient, GmiError, type Page } from "@gmi/sdk";\nimport { validateResponses } from "@gmi/sdk/validate";\nvalidateResponses();\n${body}`,
    );
    writeFileSync(
      join(scratch, "tsconfig.json"),
      JSON.stringify({
        compilerOptions: {
          module: "nodenext",
          moduleResolution: "nodenext",
          target: "es2022",
          lib: ["es2022", "dom", "dom.iterable"],
          strict: true,
          noEmit: true,
          skipLibCheck: false,
          types: [],
        },
        files: ["esm.mts", "cjs.cts"],
      }),
    );
    const tsc = spawnSync(process.execPath, [join(scratch, "node_modules/typescript/bin/tsc"), "-p", "."], {
      cwd: scratch,
      encoding: "utf8",
    });
    expect(tsc.stdout + tsc.stderr).toBe("");
    expect(tsc.status).toBe(0);
  });
});

/**
 * What a frontend gets from `npm install @gmi/sdk`: the client and its types, nothing else. Its app
 * here is on zod 4 (the clash the SDK must not cause): no contract, no OpenAPI generators, no second
 * zod, and the declarations type-check with `skipLibCheck: false` without any of them.
 */
describe.skipIf(skip)("the SDK alone, in a frontend on zod 4", { timeout: 120_000 }, () => {
  let app = "";
  const inApp = (command: string, args: string[]) => run(command, args, app);
  beforeAll(() => {
    app = mkdtempSync(join(tmpdir(), "gmi-sdk-frontend-"));
    const dir = join(root, "packages", "sdk");
    if (!existsSync(join(dir, "dist", "index.js"))) run("pnpm", ["run", "build"], dir);
    run("pnpm", ["pack", "--pack-destination", app], dir);
    const tarball = readdirSync(app).find((f) => f.endsWith(".tgz"));
    writeFileSync(
      join(app, "package.json"),
      JSON.stringify({ name: "frontend", private: true, type: "module" }),
    );
    inApp("npm", [
      "install",
      "--prefer-offline",
      "--no-audit",
      "--no-fund",
      `./${tarball}`,
      "zod@4",
      "typescript@5.9.3",
    ]);
  }, minutes);

  afterAll(() => {
    if (app) rmSync(app, { recursive: true, force: true });
  });

  it("installs no contract, no OpenAPI generator and no zod of its own", () => {
    const installed = JSON.parse(inApp("npm", ["ls", "--all", "--json"])) as {
      dependencies: Record<string, { version: string; dependencies?: Record<string, unknown> }>;
    };
    expect(Object.keys(installed.dependencies).sort()).toEqual(["@gmi/sdk", "typescript", "zod"]);
    // Optional peers (the contract and msw, for the mocks and runtime validation) stay uninstalled.
    const underSdk = Object.values(installed.dependencies["@gmi/sdk"]?.dependencies ?? {});
    expect(underSdk.filter((d) => typeof d === "object" && d !== null && "version" in d)).toEqual([]);
    expect(installed.dependencies.zod?.version).toMatch(/^4\./);
    for (const name of [
      "@gmi/contract",
      "@anatine/zod-openapi",
      "@ts-rest/open-api",
      "openapi3-ts",
      "yaml",
    ]) {
      expect(existsSync(join(app, "node_modules", name)), name).toBe(false);
    }
  });

  it("runs and type-checks with the app's zod 4 beside it", () => {
    writeFileSync(
      join(app, "main.mjs"),
      `import * as sdk from "@gmi/sdk"; import * as validate from "@gmi/sdk/validate"; ${CLIENT_SCRIPT}`.replace(
        'import * as validate from "@gmi/sdk/validate"; ',
        "const validate = { validateResponses: () => {} };",
      ),
    );
    expect(JSON.parse(inApp(process.execPath, ["main.mjs"])).rows).toEqual(["Chrono Trigger"]);
    writeFileSync(
      join(app, "app.ts"),
      `import { GmiClient, type LiquidityRow, type ResponseOf } from "@gmi/sdk";
       import { z } from "zod";
       const client = new GmiClient({ apiKey: "k", baseUrl: "https://api.test" });
       export const Form = z.object({ id: z.number() });
       export async function first(): Promise<LiquidityRow | undefined> {
         const history: ResponseOf<"intelligence.history"> = await client.intelligence.history(1, { from: "2026-01-01" });
         const score: number | undefined = history.data.points[0]?.liquidity_score;
         // @ts-expect-error not a period
         client.intelligence.list({ period: "year" });
         return score === undefined ? undefined : (await client.intelligence.list()).data[0];
       }`,
    );
    writeFileSync(
      join(app, "tsconfig.json"),
      JSON.stringify({
        compilerOptions: {
          module: "esnext",
          moduleResolution: "bundler",
          target: "es2022",
          lib: ["es2022", "dom", "dom.iterable"],
          strict: true,
          noEmit: true,
          skipLibCheck: false,
          types: [],
        },
        files: ["app.ts"],
      }),
    );
    const tsc = spawnSync(process.execPath, [join(app, "node_modules/typescript/bin/tsc"), "-p", "."], {
      cwd: app,
      encoding: "utf8",
    });
    expect(tsc.stdout + tsc.stderr).toBe("");
    expect(tsc.status).toBe(0);
  });
});
