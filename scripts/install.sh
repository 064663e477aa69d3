#!/usr/bin/env bash
# One command from a fresh clone: toolchain (Node 24, pnpm) into .tools/, dependencies, build.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
eval "$(bash scripts/toolchain.sh)"
pnpm install --frozen-lockfile
pnpm build
