// Bundles the server's two entry points (the HTTP server and the `gmi` CLI) into apps/server/dist,
// so production runs plain `node dist/main.js` / `node dist/cli.js`: no TypeScript loader, no source.
// Our own code is bundled (the generated Prisma client included: it is TypeScript under src/);
// every npm package stays external and is loaded from the deployed node_modules.
import { readFile, rm } from "node:fs/promises";
import { createRequire } from "node:module";
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

await rm(outdir, { recursive: true, force: true });
const result = await esbuild.build({
  entryPoints: { main: path.join(serverDir, "src/main.ts"), cli: path.join(serverDir, "src/cli/main.ts") },
  outdir,
  bundle: true,
  platform: "node",
  format: "esm",
  target: "node22",
  packages: "external",
  sourcemap: "linked",
  // Readable stack traces and log lines matter more than a few kilobytes.
  minify: false,
  logLevel: "warning",
  metafile: true,
  plugins: [keepSourceUrl],
});
const sizes = Object.entries(result.metafile.outputs)
  .filter(([file]) => file.endsWith(".js"))
  .map(([file, output]) => `${path.basename(file)} ${(output.bytes / 1024).toFixed(0)} KiB`);
process.stdout.write(`bundled ${sizes.join(", ")} into ${path.relative(process.cwd(), outdir) || "."}\n`);
