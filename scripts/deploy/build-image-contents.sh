#!/usr/bin/env bash
# Builds what the server image holds into one folder: the bundled server and CLI (dist/), the Prisma
# schema and migrations (prisma/), production dependencies only (node_modules/) and a `gmi` command
# (bin/gmi). apps/server/Dockerfile runs this in its build stage and copies the folder; CI runs it
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

step "build the contract and generate the Prisma client"
pnpm exec turbo run build --filter=@gmi/server... --output-logs=errors-only

step "bundle the server and the CLI"
node scripts/deploy/bundle-server.mjs

step "production dependencies into $out"
rm -rf "$out"
# pnpm 10 deploys from the shared lockfile (a dedicated lockfile, exact versions) only for injected
# workspace packages. Setting it for this command alone gives that without changing how the
# workspace links @gmi/contract for development (symlinked, so contract rebuilds show at once).
pnpm --config.inject-workspace-packages=true --filter @gmi/server --prod deploy "$out" --reporter=silent

mkdir -p "$out/bin"
cat >"$out/bin/gmi" <<'EOF'
#!/bin/sh
# The operator CLI (migrate, orgs, keys, ...): same configuration (environment) as the server.
exec node "$(dirname "$0")/../dist/cli.js" "$@"
EOF
chmod 755 "$out/bin/gmi"

step "check the folder"
# Everything the server reads at run time, resolved the way the server resolves it.
(cd "$out" && node --input-type=module -e '
  import { existsSync, readdirSync } from "node:fs";
  import { createRequire } from "node:module";
  import path from "node:path";
  const require = createRequire(new URL("./src/main.ts", `file://${process.cwd()}/`));
  const missing = [];
  for (const file of ["dist/main.js", "dist/cli.js", "prisma/schema.prisma", "prisma/migrations/migration_lock.toml"]) {
    if (!existsSync(file)) missing.push(file);
  }
  if (!readdirSync("prisma/migrations", { withFileTypes: true }).some((e) => e.isDirectory())) missing.push("prisma/migrations/*/");
  for (const specifier of [
    "@gmi/contract/openapi.json",
    "@prisma/client/runtime/client",
    "@scalar/fastify-api-reference",
    "prom-client",
  ]) {
    try { require.resolve(specifier); } catch { missing.push(specifier); }
  }
  // src/db/schema-engine.ts reads the engine next to the package entry (exports hide the .wasm).
  try {
    if (!existsSync(path.join(path.dirname(require.resolve("@prisma/schema-engine-wasm")), "schema_engine_bg.wasm"))) missing.push("schema_engine_bg.wasm");
  } catch { missing.push("@prisma/schema-engine-wasm"); }
  if (missing.length) { console.error(`missing from the image contents: ${missing.join(", ")}`); process.exit(1); }
')
node "$out/dist/cli.js" help >/dev/null
printf 'image contents ready: %s (%s)\n' "$out" "$(du -sh "$out" | cut -f1)"
