#!/usr/bin/env bash
# The director killed (docs/web.md, "Tournaments"): a Swiss on two `sow serve` sharing a
# private PostgreSQL, played by `sow-load --tournament` bots spread over both. While round 2
# is being played, the server directing the tournament (its log says "directing the
# tournament") is killed with kill -9. Passes when the other server logs that it directs
# within 5 s of the kill, and at the end: the tournament finished, every round paired once
# (no player twice in a round, no pair met twice), every board with a result, and sow-load
# exited 0 (its players on the killed server moved to the other one).
#   scripts/tournament-takeover.sh [PLAYERS] [ROUNDS]      # default 8 players, 3 rounds
# SOW_BIN / SOW_LOAD_BIN name the binaries (default: debug builds made here).
set -euo pipefail
cd "$(dirname "$0")/.."
players=${1:-8}
rounds=${2:-3}
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
psql -q "$url" -c "CREATE DATABASE takeover"
db="${url%/*}/takeover"
sql() { psql -qtA "$db" -c "$1"; }

urls=()
logs=()
for i in 1 2; do
  log="$work/serve-$i.log"
  "$SOW_BIN" serve --addr 127.0.0.1:0 --db "$db" --no-limits --first-tables 0 >"$log" 2>&1 &
  servers+=($!)
  logs+=("$log")
  for _ in $(seq 300); do grep -q "sow serve: open http://" "$log" && break; sleep 0.1; done
  addr=$(grep -o 'http://[0-9.:]*' "$log" | head -1)
  [ -n "$addr" ] || { echo "takeover: a server did not start"; cat "$log"; exit 1; }
  urls+=(--url "$addr")
done

id=$("$SOW_BIN" tournament create --db "$db" --name "Takeover" --kind swiss \
  --game hoyito-ii --rounds "$rounds" --clock 2+0 --starts-in 1)
echo "takeover: Swiss $id, $players players, $rounds rounds, starting in a minute"
"$SOW_LOAD_BIN" "${urls[@]}" --tournament "$id" --players "$players" --think-ms 100 \
  --timeout 120 >"$work/load.log" 2>&1 &
load=$!

# Round 2 being played: its boards paired, none over yet.
for _ in $(seq 1800); do
  [ "$(sql "SELECT round FROM tournaments WHERE id = $id")" -ge 2 ] && break
  sleep 0.1
done
[ "$(sql "SELECT round FROM tournaments WHERE id = $id")" -ge 2 ] ||
  { echo "takeover: round 2 never came"; cat "$work/load.log"; exit 1; }
director=-1
for i in 0 1; do
  grep -q "directing the tournament.*tournament=$id[^0-9]" "${logs[$i]}" && director=$i
done
[ "$director" -ge 0 ] || { echo "takeover: no server says it directs"; exit 1; }
other=$((1 - director))
before=$(grep -c "directing the tournament.*tournament=$id[^0-9]" "${logs[$other]}" || true)
kill -9 "${servers[$director]}"
killed=$(date +%s.%N)
echo "takeover: killed server $((director + 1)) (the director) during round 2"
took=""
for _ in $(seq 100); do
  now=$(grep -c "directing the tournament.*tournament=$id[^0-9]" "${logs[$other]}" || true)
  if [ "$now" -gt "$before" ]; then
    took=$(python3 -c "import time; print(f'{time.time() - $killed:.2f}')")
    break
  fi
  sleep 0.05
done
[ -n "$took" ] || { echo "takeover: the other server did not take over within 5 s"; exit 1; }
echo "takeover: server $((other + 1)) directs $took s after the kill"

status=0
wait "$load" || status=$?
tail -n 4 "$work/load.log" | cut -c1-300
[ "$status" -eq 0 ] || { echo "takeover: sow-load failed ($status)"; cat "$work/load.log"; exit 1; }
state=$(sql "SELECT state || ' ' || round FROM tournaments WHERE id = $id")
open=$(sql "SELECT count(*) FROM tournament_games WHERE tournament_id = $id AND result IS NULL")
twice=$(sql "SELECT count(*) FROM (SELECT round, p FROM (
    SELECT round, south AS p FROM tournament_games WHERE tournament_id = $id
    UNION ALL SELECT round, north FROM tournament_games WHERE tournament_id = $id AND north IS NOT NULL
  ) x GROUP BY round, p HAVING count(*) > 1) y")
rematches=$(sql "SELECT count(*) FROM (SELECT least(south, north), greatest(south, north)
  FROM tournament_games WHERE tournament_id = $id AND north IS NOT NULL
  GROUP BY 1, 2 HAVING count(*) > 1) y")
echo "takeover: tournament $state; boards without a result: $open; players twice in a round: $twice; pairs met twice: $rematches"
[ "$state" = "finished $rounds" ] && [ "$open" = 0 ] && [ "$twice" = 0 ] && [ "$rematches" = 0 ] ||
  { echo "takeover: FAILED"; exit 1; }
python3 -c "import sys; sys.exit(0 if $took <= 5 else 1)" ||
  { echo "takeover: FAILED: took $took s (at most 5)"; exit 1; }
echo "takeover: passed"
