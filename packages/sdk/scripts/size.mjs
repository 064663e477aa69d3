// Minified + gzipped size of a typical "create client, list, iterate" bundle of the built SDK, as a
// browser bundler would ship it (esbuild, ESM, minify, tree-shaking). Run `pnpm --filter @gmi/sdk size`
// after the build.
import { gzipSync } from "node:zlib";
import { build } from "esbuild";

const dist = new URL("../dist/", import.meta.url).pathname;

const scenarios = {
  "create client, list, iterate": `
    import { GmiClient } from "${dist}index.js";
    const client = new GmiClient({ apiKey: "key", baseUrl: "https://api.example.com" });
    for await (const row of client.intelligence.list({ period: "7d" })) console.log(row.game.name);
  `,
  "+ batch and error classes": `
    import { GmiClient, RateLimitError } from "${dist}index.js";
    const client = new GmiClient({ apiKey: "key", baseUrl: "https://api.example.com" });
    try {
      for await (const row of client.intelligence.list()) console.log(row.game.name);
      console.log(await client.intelligence.batch([1, 2, 3]));
    } catch (e) { if (e instanceof RateLimitError) console.log(e.retryAfter); }
  `,
  "whole main entry": `export * from "${dist}index.js";`,
};

const limitKb = Number(process.env.SIZE_LIMIT_KB ?? 10);
let failed = false;
for (const [name, contents] of Object.entries(scenarios)) {
  const result = await build({
    stdin: { contents, resolveDir: dist, loader: "js" },
    bundle: true,
    minify: true,
    format: "esm",
    platform: "browser",
    target: "es2022",
    write: false,
    // Type-only imports of the contract must leave nothing behind; fail loudly if they ever do.
    external: [],
    logLevel: "error",
  });
  const code = result.outputFiles[0].contents;
  const gz = gzipSync(code, { level: 9 }).length;
  const kb = (n) => `${(n / 1024).toFixed(1)} KB`;
  console.log(`${name.padEnd(32)} min ${kb(code.length).padStart(8)}  min+gz ${kb(gz).padStart(7)}`);
  if (name.startsWith("create") && gz > limitKb * 1024) failed = true;
}
if (failed) {
  console.error(`over the ${limitKb} KB budget`);
  process.exit(1);
}
