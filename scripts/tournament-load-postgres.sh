#!/usr/bin/env bash
# An arena under load (docs/web.md, "Tournaments"): a private PostgreSQL server, a fresh
# database, two release `sow serve` on it, an arena scheduled with `sow tournament create`,
# and `sow-load --tournament` bots spread over both servers playing it to its end. sow-load
# prints the time from each game's end to the player's next pairing (p50, p99), the errors,
# and the final standings as JSON on its last line.
#   scripts/tournament-load-postgres.sh [PLAYERS] [MINUTES] [THINK_MS]   # 500, 10, 1000
set -euo pipefail
cd "$(dirname "$0")/.."
players=${1:-500}
minutes=${2:-10}
think=${3:-1000}
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
psql -q "$url" -c "CREATE DATABASE arena"
db="${url%/*}/arena"
urls=()
for port in 8313 8314; do
  target/release/sow serve --addr "127.0.0.1:$port" --db "$db" --no-limits --first-tables 0 \
    >"$work/serve-$port.log" 2>&1 &
  servers+=($!)
  urls+=(--url "http://127.0.0.1:$port")
done
for port in 8313 8314; do
  for _ in $(seq 100); do
    curl -sf "http://127.0.0.1:$port/healthz" >/dev/null && break
    sleep 0.1
  done
done
# Two minutes for the players to sign up and join before it starts.
id=$(target/release/sow tournament create --db "$db" --name "Load arena" --kind arena \
  --game hoyito-ii --minutes "$minutes" --clock 3+2 --starts-in 2)
echo "tournament-load: arena $id, $players players, $minutes minutes, think $think ms"
status=0
target/release/sow-load "${urls[@]}" --tournament "$id" --players "$players" \
  --think-ms "$think" --timeout 120 || status=$?
psql -qtA "$db" -c "SELECT 'boards: ' || count(*) || ', without a result: '
    || count(*) FILTER (WHERE result IS NULL) FROM tournament_games WHERE tournament_id = $id"
for port in 8313 8314; do
  took=$(grep -c "directing the tournament" "$work/serve-$port.log" || true)
  echo "server :$port: took the lease $took times"
done
exit $status
