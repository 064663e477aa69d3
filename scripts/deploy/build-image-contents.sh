#!/usr/bin/env bash
# Builds what the server image holds into one folder: the bundled server and CLI (dist/, npm packages
# included), the Prisma schema and migrations (prisma/), the one package read from disk at run time
# (node_modules/: the migration engine's WebAssembly, and the contract's openapi.json), the built
# seller dashboard (dashboard/, served at /app) and a `gmi` command (bin/gmi). apps/server/Dockerfile runs this in its build stage and copies the folder; CI runs it
# into a scratch folder and starts the server from there (scripts/deploy/smoke.sh). One script, so
# what CI proves is what the image contains.
#
# Usage: scripts/deploy/build-image-contents.sh <output folder>   (the folder is replaced)
# Needs node and pnpm: the repository's own toolchain (.tools/) when installed, else those on PATH.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
out="${1:?usage: build-image-contents.sh <output folder>}"
mkdir -p "$(dirname "$out")"
out="$(cd "$(dirname "$out")" && pwd)/$(basename "$out")"
cd "$root"
if [ -x .tools/node/bin/node ]; then export PATH="$root/.tools/node/bin:$PATH"; fi
export TURBO_TELEMETRY_DISABLED=1 DO_NOT_TRACK=1

step() { printf '== %s\n' "$*"; }

step "install (frozen lockfile)"
pnpm install --frozen-lockfile --prefer-offline --reporter=silent

step "build the contract and the dashboard"
pnpm exec turbo run build --filter=@gmi/server... --filter=@gmi/web... --output-logs=errors-only

step "bundle the server and the CLI"
node scripts/deploy/bundle-server.mjs

step "the image contents into $out"
rm -rf "$out"
mkdir -p "$out/dist" "$out/prisma" "$out/node_modules"
cp apps/server/dist/*.js apps/server/dist/*.js.map "$out/dist/"
cp -R apps/server/prisma/schema.prisma apps/server/prisma/migrations "$out/prisma/"
# The seller dashboard the server serves at /app (DASHBOARD_DIR; the Dockerfile points it here).
cp -R apps/web/dist "$out/dashboard"
# dist/*.js are ES modules: the folder's package.json says so, and names nothing to install.
node -e '
  const pkg = require("./apps/server/package.json");
  const out = { name: pkg.name, version: pkg.version, private: true, type: "module", engines: pkg.engines };
  require("node:fs").writeFileSync(process.argv[1], `${JSON.stringify(out, null, 2)}\n`);
' "$out/package.json"
# The packages the bundle still loads from node_modules (bundle-server.mjs RUNTIME_PACKAGES), as
# installed from the lockfile, plus the contract's OpenAPI document, which the server serves as a file.
copy_package() {
  local from
  from="$(readlink -f "apps/server/node_modules/$1")"
  [ -f "$from/package.json" ] || { echo "copy_package: $1 is not installed" >&2; exit 1; }
  mkdir -p "$out/node_modules/$1"
  cp -RL "$from/." "$out/node_modules/$1/"
}
copy_package @prisma/schema-engine-wasm
mkdir -p "$out/node_modules/@gmi/contract"
cp packages/contract/package.json packages/contract/openapi.json "$out/node_modules/@gmi/contract/"
# Type declarations and READMEs are not run.
find "$out/node_modules" \( -name '*.d.ts' -o -name '*.d.mts' -o -name '*.d.cts' -o -name 'README*' \) -delete

mkdir -p "$out/bin"
cat >"$out/bin/gmi" <<'EOF'
#!/bin/sh
# The operator CLI (migrate, orgs, keys, ...): same configuration (environment) as the server.
exec node "$(dirname "$0")/../dist/cli.js" "$@"
EOF
chmod 755 "$out/bin/gmi"

step "check the folder"
# Everything the server reads at run time, resolved the way the server resolves it; and no bare
# import in the bundle beyond the packages copied above and those deliberately not shipped.
(cd "$out" && node --input-type=module -e '
  import { existsSync, readdirSync, readFileSync } from "node:fs";
  import { createRequire } from "node:module";
  import path from "node:path";
  const require = createRequire(new URL("./src/main.ts", `file://${process.cwd()}/`));
  const missing = [];
  for (const file of ["dist/main.js", "dist/cli.js", "prisma/schema.prisma", "prisma/migrations/migration_lock.toml", "dashboard/index.html"]) {
    if (!existsSync(file)) missing.push(file);
  }
  if (!readdirSync("prisma/migrations", { withFileTypes: true }).some((e) => e.isDirectory())) missing.push("prisma/migrations/*/");
  try { require.resolve("@gmi/contract/openapi.json"); } catch { missing.push("@gmi/contract/openapi.json"); }
  // src/db/schema-engine.ts reads the engine next to the package entry (exports hide the .wasm).
  try {
    if (!existsSync(path.join(path.dirname(require.resolve("@prisma/schema-engine-wasm")), "schema_engine_bg.wasm"))) missing.push("schema_engine_bg.wasm");
  } catch { missing.push("@prisma/schema-engine-wasm"); }
  const notShipped = new Set(["@electric-sql/pglite", "@electric-sql/pglite-socket", "pg-native"]);
  const imports = JSON.parse(readFileSync(process.argv[1], "utf8"));
  for (const specifier of imports) {
    if (notShipped.has(specifier)) continue;
    try { require.resolve(specifier); } catch { missing.push(specifier); }
  }
  for (const file of readdirSync("dist").filter((f) => f.endsWith(".map"))) {
    if (JSON.parse(readFileSync(`dist/${file}`, "utf8")).sourcesContent) missing.push(`${file} carries the sources`);
  }
  if (missing.length) { console.error(`wrong image contents: ${missing.join(", ")}`); process.exit(1); }
' "$root/apps/server/dist/external-imports.json")
node "$out/dist/cli.js" help >/dev/null
printf 'image contents ready: %s (%s)\n' "$out" "$(du -sh "$out" | cut -f1)"
