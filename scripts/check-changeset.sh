#!/usr/bin/env bash
# A change to the public API of a published package (its report under packages/<name>/api/, kept up
# to date by scripts/api-report.mjs) must come with a changeset naming that package.
# Compared with the merge base of main on a branch; on main itself (CI's clone), with the last
# release (the last commit that changed @gmi/sdk's version), so pending changesets count.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

main=""
for ref in main origin/main; do
  if git rev-parse --verify -q "$ref^{commit}" >/dev/null; then main="$ref"; break; fi
done
base=""
[ -n "$main" ] && base="$(git merge-base HEAD "$main")"
if [ -z "$base" ] || [ "$base" = "$(git rev-parse HEAD)" ]; then
  base="$(git log -1 --format=%H -G'"version"' -- packages/sdk/package.json)"
fi

# Changesets that did not exist at the base: committed since, staged or not yet added.
added=()
for file in .changeset/*.md; do
  [ "$file" = .changeset/README.md ] && continue
  git cat-file -e "$base:$file" 2>/dev/null || added+=("$file")
done

missing=0
for pkg in sdk contract; do
  changed="$(git diff --name-only "$base" -- "packages/$pkg/api"; git ls-files --others --exclude-standard "packages/$pkg/api")"
  [ -z "$changed" ] && continue
  if [ "${#added[@]}" -eq 0 ] || ! grep -l "^\"@gmi/$pkg\":" "${added[@]}" >/dev/null; then
    echo "check-changeset: the public API of @gmi/$pkg changed since ${base:0:10} ($(echo "$changed" | tr '\n' ' '))" >&2
    echo "check-changeset: but no new changeset names it: run ./scripts/pnpm changeset" >&2
    missing=1
  fi
done
[ "$missing" -eq 0 ] && echo "check-changeset: every public API change since ${base:0:10} has a changeset"
exit "$missing"
