#!/usr/bin/env bash
# Builds, tests and checks the published packages, then publishes them (or not, with --dry-run).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
pnpm build
pnpm test
pnpm check:packages
if [ "${1:-}" = "--dry-run" ]; then
  pnpm -r --filter "./packages/*" publish --dry-run --no-git-checks
else
  pnpm changeset publish
fi
