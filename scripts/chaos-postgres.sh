#!/usr/bin/env bash
# When the parts fail (docs/web.md, "When the parts fail"): live games through two `sow serve`
# sharing a private PostgreSQL, played by `sow-load --live --through-failures`, while
#   1. PostgreSQL is stopped for OUTAGE seconds (default 5) and started again: both servers
#      must hear every change again (the sowing_store_listening gauge) and answer /healthz
#      within 5 s of its return;
#   2. one of the two servers is killed (kill -9): its clients move to the other.
# Each part passes when sow-load exits 0: every game finished, and in the database every
# acknowledged move in order (a move refused meanwhile got 503 store-unavailable and was
# sent again); and when no game's move count differs from its stored moves.
#   scripts/chaos-postgres.sh [GAMES] [THINK_MS]       # default 200 games, 300 ms
# SOW_BIN / SOW_LOAD_BIN name the binaries (default: debug builds made here).
set -euo pipefail
cd "$(dirname "$0")/.."
games=${1:-200}
think=${2:-300}
outage=${OUTAGE:-5}
if [ -z "${SOW_BIN:-}" ] || [ -z "${SOW_LOAD_BIN:-}" ]; then
  cargo build -q --locked -p sowing-cli -p sowing-load
  SOW_BIN=${SOW_BIN:-target/debug/sow}
  SOW_LOAD_BIN=${SOW_LOAD_BIN:-target/debug/sow-load}
fi
work=$(mktemp -d)
chmod 755 "$work" # the cluster's owner (postgres, when run as root) must reach it
servers=()
stop() {
  for pid in "${servers[@]}"; do kill -9 "$pid" 2>/dev/null || true; done
  wait 2>/dev/null || true
  scripts/postgres.sh stop "$work/cluster" 2>/dev/null || true
  rm -rf "$work"
}
trap stop EXIT
url=$(scripts/postgres.sh start "$work/cluster" | tail -1)
now() { date +%s.%N; }
elapsed() { python3 -c "print(f'{$2 - $1:.2f}')"; }
failed=0

start_servers() { # $1: database URL; sets servers, urls, addrs
  servers=()
  urls=()
  addrs=()
  for i in 1 2; do
    log="$work/serve-$RANDOM.log"
    "$SOW_BIN" serve --addr 127.0.0.1:0 --db "$1" --no-limits --first-tables 0 >"$log" 2>&1 &
    servers+=($!)
    for _ in $(seq 300); do grep -q "sow serve: open http://" "$log" && break; sleep 0.1; done
    addr=$(grep -o 'http://[0-9.:]*' "$log" | head -1)
    [ -n "$addr" ] || { echo "chaos: a server did not start"; cat "$log"; exit 1; }
    urls+=(--url "$addr")
    addrs+=("$addr")
  done
}

# Starts the live games on both servers against the database $1, logging to $2; sets load.
play() {
  "$SOW_LOAD_BIN" "${urls[@]}" --db "$1" --live --through-failures --games "$games" \
    --think-ms "$think" --timeout 60 >"$2" 2>&1 &
  load=$!
}

# The games whose move count is not their stored moves (0 when nothing is half-written).
half_written() {
  psql -qtA "$1" -c "SELECT count(*) FROM games g
    WHERE g.plies <> (SELECT count(*) FROM moves m WHERE m.game_id = g.id)"
}

echo "chaos 1: PostgreSQL stopped for ${outage} s under $games live games on two servers"
psql -q "$url" -c "CREATE DATABASE restart"
db="${url%/*}/restart"
start_servers "$db"
play "$db" "$work/load-1.log"
sleep 8
down_at=$(now)
scripts/postgres.sh down "$work/cluster"
sleep "$outage"
scripts/postgres.sh up "$work/cluster"
back_at=$(now)
# The moment (to 50 ms) that `$2` first succeeds, within 10 s, written to the file $1.
first_success() {
  for _ in $(seq 200); do
    if eval "$2"; then now >"$1"; return; fi
    sleep 0.05
  done
}
# Both servers, each polled apart (a read waiting for the pool must not delay the other
# poll): when it hears every change again (its gauge), and when its pool answers (/healthz).
pollers=()
for i in 0 1; do
  addr=${addrs[$i]}
  first_success "$work/heard-$i" "curl -sf $addr/metrics | grep -q '^sowing_store_listening 1'" &
  pollers+=($!)
  first_success "$work/healthy-$i" "curl -sf -m 10 $addr/healthz >/dev/null" &
  pollers+=($!)
done
wait "${pollers[@]}"
for i in 0 1; do
  addr=${addrs[$i]}
  if [ ! -s "$work/heard-$i" ] || [ ! -s "$work/healthy-$i" ]; then
    echo "chaos 1: $addr did not reconnect within 10 s"; failed=1
    continue
  fi
  listen_took=$(elapsed "$back_at" "$(cat "$work/heard-$i")")
  pool_took=$(elapsed "$back_at" "$(cat "$work/healthy-$i")")
  echo "chaos 1: $addr after PostgreSQL's return: LISTEN again in $listen_took s, pool answering in $pool_took s"
  python3 -c "import sys; sys.exit(0 if max($listen_took, $pool_took) <= 5 else 1)" ||
    { echo "chaos 1: over 5 s"; failed=1; }
done
echo "chaos 1: the database was away for $(elapsed "$down_at" "$back_at") s"
wait "$load" || failed=1
cat "$work/load-1.log"
[ "$(half_written "$db")" = 0 ] || { echo "chaos 1: half-written games"; failed=1; }
for pid in "${servers[@]}"; do kill "$pid"; done
wait "${servers[@]}" 2>/dev/null || true

echo "chaos 2: one of two servers killed (kill -9) under $games live games"
psql -q "$url" -c "CREATE DATABASE killed"
db="${url%/*}/killed"
start_servers "$db"
play "$db" "$work/load-2.log"
sleep 8
kill -9 "${servers[1]}"
echo "chaos 2: killed the server at ${addrs[1]}"
wait "$load" || failed=1
cat "$work/load-2.log"
[ "$(half_written "$db")" = 0 ] || { echo "chaos 2: half-written games"; failed=1; }

if [ "$failed" = 0 ]; then echo "chaos: 2 passed, 0 failed"; else echo "chaos: failed"; fi
exit "$failed"
