#!/usr/bin/env bash
# The soak (docs/web.md, "When the parts fail"): one release `sow serve` on SQLite under
# GAMES live games at a time for MINUTES minutes, played by `sow-load --live` in rounds (a new
# seed each), its resident memory read every 10 s. Passes with no error in any round and
# the highest memory of the last 10 minutes at most 10% above the highest of the 10 after
# the first 10 (a sixth of a shorter run, each). A benchmark, not a test: CI does not run it.
#   scripts/soak.sh [MINUTES] [GAMES] [THINK_MS]     # default 60, 1000, 1000
# SOW_BIN / SOW_LOAD_BIN name the binaries (default: release builds made here); SOAK_DIR
# keeps the database, the logs and the memory readings (default: a new temporary folder).
set -euo pipefail
cd "$(dirname "$0")/.."
minutes=${1:-60}
games=${2:-1000}
think=${3:-1000}
if [ -z "${SOW_BIN:-}" ] || [ -z "${SOW_LOAD_BIN:-}" ]; then
  cargo build --release --locked -q -p sowing-cli -p sowing-load
  SOW_BIN=${SOW_BIN:-target/release/sow}
  SOW_LOAD_BIN=${SOW_LOAD_BIN:-target/release/sow-load}
fi
work=${SOAK_DIR:-$(mktemp -d)}
mkdir -p "$work"
"$SOW_BIN" serve --addr 127.0.0.1:0 --db "$work/soak.db" --no-limits --first-tables 0 \
  >"$work/serve.log" 2>&1 &
server=$!
trap 'kill $server 2>/dev/null || true; wait 2>/dev/null || true' EXIT
for _ in $(seq 300); do grep -q "sow serve: open http://" "$work/serve.log" && break; sleep 0.1; done
url=$(grep -o 'http://[0-9.:]*' "$work/serve.log" | head -1)
echo "soak: $games live games at a time for $minutes min against $url (database $work/soak.db)"

start=$(date +%s)
end=$((start + minutes * 60))
rss="$work/rss.csv"
echo "seconds,rss_kib" >"$rss"
(
  while kill -0 "$server" 2>/dev/null; do
    echo "$(($(date +%s) - start)),$(awk '/^VmRSS/ {print $2}' "/proc/$server/status")" >>"$rss"
    sleep 10
  done
) &
sampler=$!

round=0
failed=0
while [ "$(date +%s)" -lt "$end" ]; do
  round=$((round + 1))
  if ! "$SOW_LOAD_BIN" --url "$url" --db "$work/soak.db" --live --games "$games" \
    --think-ms "$think" --seed "$round" >"$work/round-$round.log" 2>&1; then
    failed=$((failed + 1))
    echo "soak: round $round failed:"; tail -5 "$work/round-$round.log"
  fi
  grep -E '^(moves|to opponent|errors):' "$work/round-$round.log" | sed "s/^/soak: round $round: /"
done
kill "$sampler" 2>/dev/null || true
echo "$(($(date +%s) - start)),$(awk '/^VmRSS/ {print $2}' "/proc/$server/status")" >>"$rss"

python3 - "$rss" "$minutes" "$round" "$failed" <<'PY'
import csv, sys
path, minutes, rounds, failed = sys.argv[1], float(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
rows = [(int(r["seconds"]), int(r["rss_kib"])) for r in csv.DictReader(open(path))]
# Resident memory swings with each round (a thousand games starting, then ending, and the
# allocator's trim each minute): compare like with like, the highest reading of a window
# as long as the settling time, right after it and at the end.
settle = min(600, minutes * 60 / 6)  # the first 10 minutes, or a sixth of a short run
end = rows[-1][0]
early = max(kib for s, kib in rows if settle <= s < 2 * settle)
late = max(kib for s, kib in rows if s >= end - settle)
growth = (late - early) / early * 100
at_settle = next(kib for s, kib in rows if s >= settle)
print(f"soak: {rounds} rounds, {failed} with errors")
print(f"soak: resident memory {at_settle / 1024:.1f} MiB at {settle / 60:.0f} min, "
      f"{rows[-1][1] / 1024:.1f} MiB at the end; highest {early / 1024:.1f} MiB in minutes "
      f"{settle / 60:.0f}-{2 * settle / 60:.0f}, {late / 1024:.1f} MiB in the last "
      f"{settle / 60:.0f} ({growth:+.1f}%)")
ok = failed == 0 and growth <= 10
print("soak: passed" if ok else "soak: failed")
sys.exit(0 if ok else 1)
PY
