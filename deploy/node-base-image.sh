#!/usr/bin/env bash
# The image the Dockerfile starts FROM (node:20.20-bookworm-slim), made locally for a machine that
# reaches Debian's mirror and the npm registry but not Docker Hub (the test machines: the
# container test, apps/api/resilience/container.resilience.ts, runs this first). Anywhere the
# registry is reachable, the official image is pulled instead and this is not needed.
#
# What it holds, as the official image does: Debian bookworm (debootstrap, minbase), Node.js 20.20
# with npm in /usr/local, and the `node` user (uid and gid 1000). Node.js and npm are this
# machine's own (the same version the tag names, checked), and so is the CA bundle that npm trusts
# during the build (NODE_EXTRA_CA_CERTS), which holds any CA this machine's network requires.
#
# Usage: deploy/node-base-image.sh [podman|docker]   (podman by default; needs root, for debootstrap)
set -euo pipefail

engine="${1:-podman}"
tag=docker.io/library/node:20.20-bookworm-slim
if "$engine" image inspect "$tag" >/dev/null 2>&1; then
  exit 0
fi

version="$(node --version)"
case "$version" in
  v20.20.*) ;;
  *)
    echo "node-base-image: this machine's Node.js is $version; the image is tagged 20.20" >&2
    exit 1
    ;;
esac
npm_dir="$(npm root -g)/npm"
[ -f "$npm_dir/bin/npm-cli.js" ] || { echo "node-base-image: npm not found at $npm_dir" >&2; exit 1; }
ca=/etc/ssl/certs/ca-certificates.crt
[ -f "$ca" ] || { echo "node-base-image: no CA bundle at $ca" >&2; exit 1; }

root="$(mktemp -d)"
trap 'rm -rf "$root"' EXIT
echo "node-base-image: Debian bookworm (debootstrap) with Node.js $version..."
debootstrap --variant=minbase bookworm "$root" http://deb.debian.org/debian >/dev/null
mkdir -p "$root/usr/local/bin" "$root/usr/local/lib/node_modules" "$root/etc/ssl/certs"
cp "$(command -v node)" "$root/usr/local/bin/node"
cp -a "$npm_dir" "$root/usr/local/lib/node_modules/npm"
ln -s ../lib/node_modules/npm/bin/npm-cli.js "$root/usr/local/bin/npm"
ln -s ../lib/node_modules/npm/bin/npx-cli.js "$root/usr/local/bin/npx"
cp "$ca" "$root/etc/ssl/certs/ca-certificates.crt"
chroot "$root" groupadd --gid 1000 node
chroot "$root" useradd --uid 1000 --gid node --shell /bin/bash --create-home node
rm -rf "$root"/var/cache/apt/archives/*.deb "$root"/var/lib/apt/lists/*

tar -C "$root" -c . | "$engine" import \
  --change 'ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin' \
  --change "ENV NODE_EXTRA_CA_CERTS=$ca" \
  --change 'CMD ["node"]' \
  - "$tag" >/dev/null
echo "node-base-image: $tag ready"
