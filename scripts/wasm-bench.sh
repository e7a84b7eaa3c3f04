#!/usr/bin/env bash
# The WebAssembly engine's speed in headless Chromium beside native `sow bench` (release),
# board by board: scripts/browser/wasm-bench.mjs. A benchmark: prints the figures.
#   scripts/wasm-bench.sh [GAMES] [REPEAT]     (default 100000 games on 2×6, 5 runs each)
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build -q --release -p sowing-cli
if [ ! -d scripts/browser/node_modules/playwright-core ]; then
  (cd scripts/browser && PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 npm ci --no-audit --no-fund --silent)
fi
uptime
node scripts/browser/wasm-bench.mjs "$(pwd)/target/release/sow" "${1:-100000}" "${2:-5}"
uptime
