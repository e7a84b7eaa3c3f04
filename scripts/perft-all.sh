#!/usr/bin/env bash
# Checks every perft vector of crates/sowing/tests/data/perft.txt with the release `sow perft`,
# the large ones (depth 8 on 2×12: 125 million) included, which the test suite leaves out.
# Usage: scripts/perft-all.sh [path/to/sow]
set -euo pipefail
cd "$(dirname "$0")/.."
sow=${1:-target/release/sow}
[ -x "$sow" ] || cargo build --release -q -p sowing-cli
failed=0
while read -r game pits options depth nodes; do
    case "$game" in ''|'#'*) continue ;; esac
    flags=(--game "$game" --pits "$pits" --depth "$depth")
    if [ "$options" != "-" ]; then
        IFS=',' read -ra pairs <<< "$options"
        for pair in "${pairs[@]}"; do flags+=("--${pair%%=*}" "${pair#*=}"); done
    fi
    got=$("$sow" perft "${flags[@]}")
    if [ "$got" = "$nodes" ]; then
        echo "ok   $game $pits $options depth $depth: $got"
    else
        echo "FAIL $game $pits $options depth $depth: $got, expected $nodes"
        failed=1
    fi
done < crates/sowing/tests/data/perft.txt
exit $failed
