// Bundles the server's two entry points (the HTTP server and the `gmi` CLI) into apps/server/dist,
// so production runs plain `node dist/main.js` / `node dist/cli.js`: no TypeScript loader, no source.
// Our own code and the npm packages it imports are bundled, so the image needs no node_modules
// beyond the few packages that read their own files at run time (RUNTIME_PACKAGES, copied by
// build-image-contents.sh). `pnpm deploy --prod` would also bring the dev tools that the Prisma
// client's optional peers resolve to (TypeScript, the Prisma CLI with Studio): ~400 MB instead of ~15.
import { readFile, rm, writeFile } from "node:fs/promises";
import { createRequire, isBuiltin } from "node:module";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const serverDir = fileURLToPath(new URL("../../apps/server/", import.meta.url));
const outdir = path.join(serverDir, "dist");
// esbuild is a devDependency of the server, not of the repository root.
const esbuild = await import(
  pathToFileURL(createRequire(path.join(serverDir, "package.json")).resolve("esbuild"))
);

/**
 * Some modules find files relative to themselves (`new URL("../..", import.meta.url)` to reach
 * prisma/, createRequire(import.meta.url) to resolve packages). Once bundled, import.meta.url would
 * be dist/main.js and those paths would be wrong, so each module gets the URL its source file has
 * in the deployed folder (dist/ and src/ are siblings there, as here), computed at run time.
 */
const keepSourceUrl = {
  name: "keep-source-url",
  setup(build) {
    build.onLoad({ filter: /\.ts$/ }, async (args) => {
      const source = await readFile(args.path, "utf8");
      if (!source.includes("import.meta.url")) return { contents: source, loader: "ts" };
      const relative = path.relative(outdir, args.path).split(path.sep).join("/");
      const sourceUrl = `new URL(${JSON.stringify(relative)}, import.meta.url).href`;
      return { contents: source.replaceAll("import.meta.url", sourceUrl), loader: "ts" };
    });
  },
};

/**
 * Packages left out of the bundle. The schema engine reads its .wasm next to its entry; the embedded
 * database (PGlite) is for trying the service from the repository and is not in the image: it is
 * imported only when DATABASE_URL is unset (src/db/embedded.ts says so clearly when it is missing).
 * `pg-native` is an optional alternative driver `pg` loads only on request.
 */
export const RUNTIME_PACKAGES = ["@prisma/schema-engine-wasm"];
const NOT_SHIPPED = ["@electric-sql/pglite", "@electric-sql/pglite-socket", "pg-native"];

await rm(outdir, { recursive: true, force: true });
const result = await esbuild.build({
  entryPoints: { main: path.join(serverDir, "src/main.ts"), cli: path.join(serverDir, "src/cli/main.ts") },
  outdir,
  bundle: true,
  platform: "node",
  format: "esm",
  // Shared code in chunks; a dynamic import (Prisma's 4.7 MB query compiler) is loaded when first
  // used, not parsed at start-up.
  splitting: true,
  // Next to the entries: keepSourceUrl's paths are relative to this folder.
  chunkNames: "[name]-[hash]",
  target: "node22",
  external: [...RUNTIME_PACKAGES, ...NOT_SHIPPED],
  // Bundled CommonJS packages call require() for Node's built-ins; an ES module has none of its own.
  banner: {
    js: 'import { createRequire as __gmiCreateRequire } from "node:module"; const require = __gmiCreateRequire(import.meta.url);',
  },
  // Stack traces point at our source files and lines, but the maps do not carry the source itself.
  sourcemap: "linked",
  sourcesContent: false,
  // Readable stack traces and log lines matter more than a few kilobytes.
  minify: false,
  logLevel: "warning",
  metafile: true,
  plugins: [keepSourceUrl],
});
// What the bundle still imports at run time, for build-image-contents.sh to check against.
const imported = new Set();
for (const output of Object.values(result.metafile.outputs)) {
  for (const entry of output.imports) {
    if (entry.external && !isBuiltin(entry.path)) imported.add(entry.path);
  }
}
await writeFile(
  path.join(outdir, "external-imports.json"),
  `${JSON.stringify([...imported].sort(), null, 2)}\n`,
);
const sizes = Object.entries(result.metafile.outputs)
  .filter(([file]) => file.endsWith(".js"))
  .map(([file, output]) => `${path.basename(file)} ${(output.bytes / 1024).toFixed(0)} KiB`);
process.stdout.write(`bundled ${sizes.join(", ")} into ${path.relative(process.cwd(), outdir) || "."}\n`);
