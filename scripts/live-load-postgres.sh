#!/usr/bin/env bash
# Live games on two servers sharing PostgreSQL, measured by sow-load (docs/web.md, "Live
# games under load"): a private PostgreSQL server, a fresh database, two release
# `sow serve` on it, then `sow-load --live` through both (or `--seek`, quick pairing, when
# the arguments say so). Extra arguments go to sow-load (default: --games 1000 --think-ms 1000).
#   scripts/live-load-postgres.sh [sow-load arguments…]
#   scripts/live-load-postgres.sh --seek --games 1000 --clock 180+2
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release --locked -p sowing-cli -p sowing-load
work=$(mktemp -d)
chmod 755 "$work" # the cluster's owner (postgres, when run as root) must reach it
servers=()
stop() {
  for pid in "${servers[@]}"; do kill "$pid" 2>/dev/null || true; done
  wait 2>/dev/null || true
  scripts/postgres.sh stop "$work/cluster"
  rm -rf "$work"
}
trap stop EXIT
url=$(scripts/postgres.sh start "$work/cluster" | tail -1)
psql -q "$url" -c "CREATE DATABASE load"
db="${url%/*}/load"
urls=()
for port in 8303 8304; do
  target/release/sow serve --addr "127.0.0.1:$port" --db "$db" --no-limits --first-tables 0 \
    >"$work/serve-$port.log" 2>&1 &
  servers+=($!)
  urls+=(--url "http://127.0.0.1:$port")
done
for port in 8303 8304; do
  for _ in $(seq 100); do
    curl -sf "http://127.0.0.1:$port/healthz" >/dev/null && break
    sleep 0.1
  done
done
if [ $# -eq 0 ]; then set -- --games 1000 --think-ms 1000; fi
status=0
mode=--live
for arg in "$@"; do [ "$arg" = --seek ] && mode=; done
target/release/sow-load "${urls[@]}" --db "$db" ${mode:+"$mode"} "$@" || status=$?
# Each server's own share: from a move's request received to its row committed, by bucket.
for port in 8303 8304; do
  echo "server :$port, move received → stored (sowing_move_seconds, cumulative counts):"
  curl -sf "http://127.0.0.1:$port/metrics" | grep '^sowing_move_seconds_bucket{kind="live"' |
    sed -E 's/.*le="([^"]+)"} (.*)/  ≤ \1 s: \2/' | tr '\n' ' '
  echo
done
exit $status
