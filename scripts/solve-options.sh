#!/usr/bin/env bash
# Solves the start of every option set of RULES.md beside the defaults (docs/solve.md,
# "Every option set"): builds the endgame tables each set needs, then `sow solve` with a
# certificate in docs/solve/, which the run checks with `sow solve verify` before it ends.
# A long CPU run: run it alone, at nice. Each step resumes after a kill (the tables'
# builder skips the layers built, `sow solve` reads its checkpoint).
#
#   scripts/solve-options.sh                     # every set, tables in target/solve-tables
#   scripts/solve-options.sh ayoayo-holder       # some sets, by name
#   TABLES=/work/tables SECONDS_EACH=7200 SOW=/tmp/sow scripts/solve-options.sh
#   MEMORY=9 scripts/solve-options.sh hoyito-ii-opponent   # the solver's store, GiB (default 3)
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
tables="${TABLES:-$root/target/solve-tables}"
seconds="${SECONDS_EACH:-3600}"
memory="${MEMORY:-3}"
logs="$root/target/solve-logs"
mkdir -p "$tables" "$logs"

# name | the rules' flags | seeds of the tables | the solver's own flags (`--from-ends` where
# the test in the middle of [-48, 48] did not close within 15 minutes: bounds come sooner)
SETS="
hoyito-ii-opponent|--game hoyito-ii --casa-rows opponent|24|--from-ends
hoyito-iii-opponent|--game hoyito-iii --casa-rows opponent|24|--from-ends
hoyito-iii-four-south|--game hoyito-iii --final-four south|16|
hoyito-iii-four-north|--game hoyito-iii --final-four north|16|
hoyito-iii-opponent-four-south|--game hoyito-iii --casa-rows opponent --final-four south|24|--from-ends
hoyito-iii-opponent-four-north|--game hoyito-iii --casa-rows opponent --final-four north|24|--from-ends
ayoayo-holder|--game ayoayo --leftover holder|24|--from-ends
"

# SOW: a `sow` to run (a copy, so that a build meanwhile does not change it under the run).
if [ -z "${SOW:-}" ]; then
  cargo build --release --locked -q -p sowing-cli
  SOW="$root/target/release/sow"
fi
sow="$SOW"
wanted=("$@")
while IFS='|' read -r name rules seeds extra; do
  [ -n "$name" ] || continue
  if [ ${#wanted[@]} -gt 0 ] && [[ ! " ${wanted[*]} " == *" $name "* ]]; then
    continue
  fi
  echo "== $name: tables to $seeds seeds"
  # shellcheck disable=SC2086 # the flags are words
  /usr/bin/time -v nice -n 19 "$sow" tables build $rules --max-seeds "$seeds" --dir "$tables" \
    --quiet 2> "$logs/$name.tables.time"
  echo "== $name: solve"
  # shellcheck disable=SC2086
  /usr/bin/time -v nice -n 19 "$sow" solve $rules --tables "$tables" --memory "$memory" \
    --certificate "docs/solve/$name.cert" --max-seconds "$seconds" --progress 30 $extra \
    > "$logs/$name.out" 2> "$logs/$name.err" || true
  tail -1 "$logs/$name.out"
done <<< "$SETS"
