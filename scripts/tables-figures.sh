#!/usr/bin/env bash
# The endgame-table build figures of docs/tables.md ("Build figures"): each build the issue
# names, timed with /usr/bin/time -v, into DIR (layers already there are kept, so a second
# run resumes; give an empty DIR for the full figures). Prints per build the wall time,
# CPU time, peak RSS, disk used by the tables' files, positions per core-second, the share of
# the CPU the job got, and the load average before and after (the machine is shared: wall time under load is not the
# quiet figure, positions per core-second is).
#
#   scripts/tables-figures.sh DIR [THREADS] [BUILD …]
#
# BUILD is hoyito-ii-S, hoyito-iii-S, ayoayo-last-mover-S or ayoayo-holder-S (S: the seeds, e.g.
# hoyito-iii-28), or hoyito-ii-2x12-12 (default: hoyito-ii-24 hoyito-iii-24 ayoayo-last-mover-20
# ayoayo-holder-20 hoyito-ii-2x12-12, in that order). Hoyito builds only the layers play
# from the start reaches (4, 8, …: docs/tables.md); BUILD-all (e.g. hoyito-iii-24-all) builds
# every layer; BUILD-disk (e.g. hoyito-iii-24-disk) solves every layer on disk (`--on-disk`, as
# a layer too large for memory always is); BUILD-memG (e.g. ayoayo-last-mover-24-mem16) sends to
# disk each layer whose in-memory solve would pass G GiB (`--memory G`). The builder's own lines (per layer: positions, moves inside, rounds, times)
# are kept in DIR/BUILD.log.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ $# -lt 1 ]; then
  echo "usage: scripts/tables-figures.sh DIR [THREADS] [BUILD …]" >&2
  exit 2
fi
dir=$1
threads=${2:-2}
shift $(($# >= 2 ? 2 : 1))
builds=("$@")
[ ${#builds[@]} -gt 0 ] || builds=(hoyito-ii-24 hoyito-iii-24 ayoayo-last-mover-20 ayoayo-holder-20 hoyito-ii-2x12-12)
[ -x /usr/bin/time ] || { echo "tables-figures: installing GNU time"; apt-get install -y -qq time >/dev/null; }
cargo build -q --release -p sowing-cli
sow=target/release/sow
mkdir -p "$dir"

# Positions in the layer files under $1: one byte each after a 64-byte header.
held() {
  find "$1" -name 'layer-*.sowt' -printf '%s\n' | awk '{ n += $1 - 64 } END { printf "%.0f\n", n }'
}

for build in "${builds[@]}"; do
  all=()
  name=$build
  case $build in *-mem[0-9]*) all=(--memory "${build##*-mem}"); build=${build%-mem*} ;; esac
  case $build in *-disk) all+=(--on-disk); build=${build%-disk} ;; esac
  case $build in *-all) all+=(--layers all); build=${build%-all} ;; esac
  case $build in
    hoyito-ii-2x12-12) args=(--game hoyito-ii --pits 12 --max-seeds 12) ;;
    hoyito-ii-[0-9]*) args=(--game hoyito-ii --max-seeds "${build##*-}") ;;
    hoyito-iii-[0-9]*) args=(--game hoyito-iii --max-seeds "${build##*-}") ;;
    ayoayo-last-mover-[0-9]*) args=(--game ayoayo --leftover last-mover --max-seeds "${build##*-}") ;;
    ayoayo-holder-[0-9]*) args=(--game ayoayo --leftover holder --max-seeds "${build##*-}") ;;
    *) echo "tables-figures: unknown build $build" >&2; exit 2 ;;
  esac
  report=$(mktemp)
  held_before=$(held "$dir")
  before=$(cut -d' ' -f1-3 /proc/loadavg)
  /usr/bin/time -v -o "$report" "$sow" tables build "${args[@]}" "${all[@]}" --dir "$dir" \
    --threads "$threads" 2> >(grep -v '\[' >"$dir/$name.log")
  after=$(cut -d' ' -f1-3 /proc/loadavg)
  positions=$(($(held "$dir") - held_before)) # built in this run
  disk=$(du -sb "$dir" | cut -f1)
  awk -v build="$name" -v positions="$positions" -v disk="$disk" -v before="$before" -v after="$after" -F': ' '
    /Elapsed \(wall clock\)/ { wall = $2 }
    /User time/ { user = $2 }
    /System time/ { sys = $2 }
    /Maximum resident set size/ { rss = $2 }
    /Percent of CPU this job got/ { cpu = $2 }
    END {
      cores = user + sys
      printf "%s: %.0f positions built, wall %s, CPU %.1f s (user %.1f + system %.1f), peak RSS %.2f GiB, disk (all of DIR) %.2f GiB, %.2f million positions per core-second, CPU this job got %s, load average before %s, after %s\n",
        build, positions, wall, cores, user, sys, rss / 1048576, disk / 1073741824, (cores > 0 ? positions / cores / 1e6 : 0), cpu, before, after
    }' "$report"
  rm -f "$report"
done
