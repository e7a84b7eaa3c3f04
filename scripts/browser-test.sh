#!/usr/bin/env bash
# Browser tests of `sow serve` in headless Chromium: starts the server on a free loopback
# port with a fresh database, drives the page with playwright-core (Debian's chromium, no
# browser download), kills and restarts the server once mid-way, and stops it at the end.
# Installs chromium (apt-get) and playwright-core (npm, pinned by package-lock.json) when
# missing. Prints "N passed, M failed" and exits non-zero on any failure.
#
#   scripts/browser-test.sh                         # build and test
#   SHOT=docs/screenshot.png scripts/browser-test.sh  # also take the README's screenshot
#   SHOTS=/tmp/shots scripts/browser-test.sh           # and the analysis's, desktop and phone
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)

if ! command -v chromium >/dev/null 2>&1; then
  echo "browser-test: installing Debian's chromium and chromium-driver"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq chromium chromium-driver >/dev/null
fi
if [ ! -d scripts/browser/node_modules/playwright-core ]; then
  echo "browser-test: installing playwright-core (no browser download)"
  (cd scripts/browser && PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 npm ci --no-audit --no-fund --silent)
fi

# The page's modules first: no import circle, none too long, no globals (plain Node, fast).
node scripts/browser/imports.mjs

if [ -z "${SOW_BIN:-}" ]; then
  cargo build -q -p sowing-cli
  SOW_BIN="$root/target/debug/sow"
fi

work=$(mktemp -d)
db="$work/games.db"
tables="$work/tables" # Hoyito II to 8 seeds, for the per-pit values: a second or two
"$SOW_BIN" tables build --game hoyito-ii --max-seeds 8 --dir "$tables" --quiet
log="$work/serve.log"
pidfile="$work/serve.pid"

start_server() { # $1: address
  "$SOW_BIN" serve --addr "$1" --db "$db" --tables "$tables" >>"$log" 2>&1 &
  echo $! >"$pidfile"
  disown # the restart kills it with -9: no job-control notice for that
  for _ in $(seq 1 100); do
    if grep -q "sow serve: open http://" "$log" 2>/dev/null && [ "$(grep -c 'sow serve: open' "$log")" -ge "${2:-1}" ]; then
      return 0
    fi
    sleep 0.1
  done
  echo "browser-test: the server did not start"; cat "$log"; return 1
}
stop_server() {
  if [ -f "$pidfile" ]; then
    pid=$(cat "$pidfile")
    kill "$pid" 2>/dev/null || true
    for _ in $(seq 1 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
  fi
}
trap 'stop_server; rm -rf "$work"' EXIT

start_server 127.0.0.1:0 1
url=$(grep -o 'http://[0-9.:]*' "$log" | head -1)
addr=${url#http://}
echo "browser-test: server at $url, database $db"

# A hard kill (no shutdown at all) and a start on the same address and database, after
# SOW_DOWN seconds (default 0.3).
# It may be used more than once: it waits for one more start than the log had.
restart="n=\$(grep -c 'sow serve: open' '$log'); kill -9 \$(cat '$pidfile'); sleep \${SOW_DOWN:-0.3}; '$SOW_BIN' serve --addr '$addr' --db '$db' --tables '$tables' >>'$log' 2>&1 & echo \$! >'$pidfile'; for i in \$(seq 1 100); do [ \$(grep -c 'sow serve: open' '$log') -gt \$n ] && break; sleep 0.1; done"

# The server stopped (hard) and started again on the same address and database, as two
# commands, for a test that works while it is away.
down="kill -9 \$(cat '$pidfile')"
up="n=\$(grep -c 'sow serve: open' '$log'); '$SOW_BIN' serve --addr '$addr' --db '$db' --tables '$tables' >>'$log' 2>&1 & echo \$! >'$pidfile'; for i in \$(seq 1 100); do [ \$(grep -c 'sow serve: open' '$log') -gt \$n ] && break; sleep 0.1; done"

status=0
SOW_URL="$url" SOW_RESTART="$restart" SHOT="${SHOT:+$root/${SHOT#"$root"/}}" \
  node scripts/browser/test.mjs || status=$?
# Play a friend: two devices and a watcher, through the same server (restarted once more).
SOW_URL="$url" SOW_RESTART="$restart" node scripts/browser/live.mjs || status=$?
# Quick pairing: a desktop and a phone press the same clock; cancelling and leaving.
SOW_URL="$url" node scripts/browser/pairing.mjs || status=$?
# Challenges by name: a desktop challenges a Spanish phone, which accepts, declines, refuses.
SOW_URL="$url" node scripts/browser/challenges.mjs || status=$?
# Correspondence over two simulated days, on a server whose clocks move only when told.
cargo build -q -p sowing-web --example manual_clock_server
MANUAL_CLOCK_SERVER="$root/target/debug/examples/manual_clock_server" \
  node scripts/browser/correspondence.mjs || status=$?
# A 390×844 phone: the board holds still, everything fits, nothing misleads.
SOW_URL="$url" node scripts/browser/phone.mjs || status=$?
# The engine in the browser on a phone: a whole game against level 4, a hint and the bar,
# the server's engine never asked (and asked when the browser is told to).
SOW_URL="$url" node scripts/browser/pocket.mjs || status=$?
# Installable and offline: the manifest and service worker pass Chromium's check, the page
# reloads with the network cut, its engine and kept tables answering; with the server
# stopped, a whole game against level 4 played and reviewed, Learn opened (and a tab closed
# mid-lesson, its game not sent), and the game synced once (two tabs) when the server is back.
SOW_URL="$url" SOW_DOWN_CMD="$down" SOW_UP_CMD="$up" node scripts/browser/offline.mjs || status=$?
# The page in Spanish, and the switch to English and back.
SOW_URL="$url" SHOTS="${SHOTS:-}" node scripts/browser/es.mjs || status=$?
# The analysis after the game: a short game finished, reviewed, shared, on a phone.
SOW_URL="$url" SHOTS="${SHOTS:-}" node scripts/browser/analysis.mjs || status=$?
# The review of a long game stepped on a phone (next mistake, the slider), the board in view.
SOW_URL="$url" SHOTS="${SHOTS:-}" node scripts/browser/review.mjs || status=$?
# The school: the explorer's proven openings and a practice converted, phone and desktop,
# English and Spanish.
SOW_URL="$url" node scripts/browser/school.mjs || status=$?
# Puzzles: three solved, one missed, the daily puzzle and a streak, phone and desktop,
# English and Spanish (the server mines its first set from the Hoyito II tables above).
SOW_URL="$url" node scripts/browser/puzzles.mjs || status=$?
# A page on another origin tries to act on the server.
SOW_URL="$url" node scripts/browser/attack.mjs || status=$?
# Tournaments: a four-player Swiss of three rounds and a one-minute arena with berserk, all
# through the page, a phone and a Spanish page among the players.
SOW_URL="$url" node scripts/browser/tournaments.mjs || status=$?
SOW_URL="$url" node scripts/browser/accounts.mjs || status=$?
exit $status
