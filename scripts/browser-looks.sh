#!/usr/bin/env bash
# Screenshots of the page's main views (a game, the new-game dialog, a Learn lesson, the
# end-of-game summary; desktop, 390 px phone, dark scheme) for comparing its looks:
#
#   scripts/browser-looks.sh docs/looks/after     # writes docs/looks/after-*.png
#
# Starts `sow serve` on a free loopback port with a fresh database and stops it at the end.
# Needs what scripts/browser-test.sh installs (chromium, playwright-core).
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
prefix=${1:?usage: scripts/browser-looks.sh PREFIX}
if [ ! -d scripts/browser/node_modules/playwright-core ]; then
  (cd scripts/browser && PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 npm ci --no-audit --no-fund --silent)
fi
if [ -z "${SOW_BIN:-}" ]; then
  cargo build -q -p sowing-cli
  SOW_BIN="$root/target/debug/sow"
fi
work=$(mktemp -d)
"$SOW_BIN" serve --addr 127.0.0.1:0 --db "$work/games.db" >"$work/serve.log" 2>&1 &
pid=$!
trap 'kill $pid 2>/dev/null || true; rm -rf "$work"' EXIT
for _ in $(seq 1 100); do grep -q 'sow serve: open http://' "$work/serve.log" && break; sleep 0.1; done
url=$(grep -o 'http://[0-9.:]*' "$work/serve.log" | head -1)

case $prefix in /*) ;; *) prefix="$root/$prefix" ;; esac
mkdir -p "$(dirname "$prefix")"
SOW_URL="$url" LOOKS="$prefix" node scripts/browser/looks.mjs
