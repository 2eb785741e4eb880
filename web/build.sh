#!/usr/bin/env bash
# Builds the browser package and site into web/dist/: the engine compiled to
# WebAssembly (with asyncify, so a search pauses for the page), the
# JavaScript that drives it, and the files a web GUI or Node uses.
# Run from the repository's top folder: web/build.sh
# Needs: rustup's wasm32-unknown-unknown target (installed here if missing)
# and binaryen's wasm-opt (Debian: apt-get install binaryen).
set -euo pipefail
cd "$(dirname "$0")/.."
if ! rustup target list --installed 2>/dev/null | grep -qx wasm32-unknown-unknown; then
    echo "web/build.sh: installing the wasm32-unknown-unknown target" >&2
    rustup target add wasm32-unknown-unknown
fi
if ! command -v node >/dev/null 2>&1; then
    echo "web/build.sh: node is missing: install Node.js 20 or later" >&2
    exit 1
fi
if ! command -v wasm-opt >/dev/null 2>&1; then
    echo "web/build.sh: wasm-opt is missing: install binaryen (apt-get install binaryen)" >&2
    exit 1
fi
cargo build --quiet -p pasang-web --release --target wasm32-unknown-unknown
mkdir -p web/dist
# asyncify instruments only what can reach the pause import (the search's
# own calls; no pause is reached through a function pointer or trait
# object, so indirect calls are left alone: 2.5x the speed of instrumenting
# them too); -O3 after it.
wasm-opt "${CARGO_TARGET_DIR:-target}/wasm32-unknown-unknown/release/pasang_web.wasm" \
    --enable-bulk-memory --enable-sign-ext --enable-mutable-globals \
    --enable-nontrapping-float-to-int --enable-simd --enable-multivalue \
    --enable-reference-types \
    --asyncify --pass-arg=asyncify-imports@host.pause_for_page \
    --pass-arg=asyncify-ignore-indirect \
    -O3 -o web/dist/pasang.wasm
cp web/js/pasang.mjs web/js/pasang.d.ts web/js/engine.mjs web/js/worker.mjs \
    web/js/board-worker.mjs web/package.json web/README.md LICENSE web/dist/
# The board page, the rules, the manifest and the service worker.
node web/js/build-site.mjs src/page/assets web/dist
echo "web/dist/pasang.wasm: $(wc -c < web/dist/pasang.wasm) bytes, $(gzip -9 -c web/dist/pasang.wasm | wc -c) gzipped"
echo "web/dist/ in all: $(tar -cf - -C web/dist . | wc -c) bytes, $(tar -cf - -C web/dist . | gzip -9 | wc -c) gzipped"
