#!/usr/bin/env bash
# Test data: real CUDA libraries from npm, for the ELF/fatbin reader's tests (test/elf/real-binaries.test.ts).
# Fetched with `npm pack` (the npm registry's own client) into test/.binaries/, which git ignores; only the
# one CUDA library of each package is kept. Tests skip with a line saying so when a file is absent.
#   node-llama-cpp 3.6.0 (llama.cpp b4753, CUDA 12.2): libggml-cuda.so, SASS sm_50..sm_80 + PTX, no sm_120
#   @fugood/node-llama 1.7.15: index.node, SASS sm_89 + PTX compute_89 only
set -euo pipefail
cd "$(dirname "$0")/.."
dest=test/.binaries
mkdir -p "$dest"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

fetch() {
  local spec=$1 member=$2 name=$3
  if [ -s "$dest/$name" ]; then return 0; fi
  (cd "$work" && npm pack --silent "$spec" >/dev/null)
  local tarball
  tarball=$(ls "$work"/*.tgz)
  tar -xzf "$tarball" -C "$work" "package/$member"
  mv "$work/package/$member" "$dest/$name.part" && mv "$dest/$name.part" "$dest/$name"
  rm -rf "$work"/*
}

fetch @node-llama-cpp/linux-x64-cuda@3.6.0 bins/linux-x64-cuda/libggml-cuda.so node-llama-cpp-3.6.0-libggml-cuda.so
fetch @fugood/node-llama-linux-x64-cuda@1.7.15 index.node fugood-node-llama-1.7.15-cuda.node
ls -l "$dest"
