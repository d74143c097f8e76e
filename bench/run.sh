#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Benchmarks hpcdb on synthetic v4.0 databases of growing size, all in one run:
# for each size, the `cat` floor, `hpcdb info`, a full read into the model, a
# zero-copy scan of all values, `hpcdb validate` and `hpcdb convert`, each
# with wall time, MB/s of input and peak RSS. Files are read from the page
# cache (each database is read once before timing). CPU s (user + system, of
# the best run) shows the work apart from waiting for a core on a busy
# machine, and where two threads overlap.
# Usage: bench/run.sh BUILD_DIR [WORK_DIR] [SIZES...]
#   a size is PROFILESxCONTEXTSxMETRICS, e.g. 64x10000x4
set -euo pipefail
build=${1:?usage: bench/run.sh BUILD_DIR [WORK_DIR] [SIZES...]}
work=${2:-$build/bench-work}
shift $(( $# >= 2 ? 2 : 1 ))
sizes=("$@")
[ ${#sizes[@]} -gt 0 ] || sizes=(64x10000x4 256x10000x4 64x100000x4 1024x10000x8 256x100000x8)
hpcdb=$build/hpcdb
mkdir -p "$work"

# Runs a command; prints "seconds peak_kib cpu_seconds" (wall time to the
# millisecond, the best of three runs, and its user + system time; peak RSS
# from GNU time).
measure() {
  local t best=999999 kb=0 cpu=0 s e w
  t=$(mktemp)
  for _ in 1 2 3; do
    s=$(date +%s%N)
    /usr/bin/time -o "$t" -f "%M %U %S" "$@" >/dev/null 2>&1 || true
    e=$(date +%s%N)
    w=$(( (e - s) / 1000000 ))
    kb=$(tail -n 1 "$t" | cut -d' ' -f1)
    if [ "$w" -lt "$best" ]; then
      best=$w
      cpu=$(tail -n 1 "$t" | awk '{ print $2 + $3 }')
    fi
  done
  rm -f "$t"
  awk -v ms="$best" -v kb="$kb" -v cpu="$cpu" 'BEGIN { printf "%.3f %s %.2f\n", ms / 1000, kb, cpu }'
}
rate() { awk -v b="$1" -v s="$2" 'BEGIN { if (s <= 0) s = 0.005; printf "%.0f", b / 1048576 / s }'; }
ratio() { awk -v f="$1" -v s="$2" 'BEGIN { if (s <= 0) s = 0.005; printf "%.2f", f / s }'; }

echo "machine: $(nproc) cores, $(awk '/MemTotal/ {printf "%.0f GiB", $2/1048576}' /proc/meminfo), $(uname -sr)"
echo "command: bench/run.sh $build $work ${sizes[*]}"
echo
printf '| profiles × contexts × metrics | input MB | operation | wall s | CPU s | MB/s | vs cat | peak RSS MB |\n'
printf '|---|---|---|---|---|---|---|---|\n'
for size in "${sizes[@]}"; do
  IFS=x read -r P C M <<<"$size"
  db=$work/db-$size
  if [ ! -f "$db/cct.db" ]; then
    "$build/gen_v4db" --profiles "$P" --contexts "$C" --metrics "$M" -o "$db"
  fi
  bytes=$(cat "$db"/*.db | wc -c)
  mb=$(awk -v b="$bytes" 'BEGIN { printf "%.1f", b / 1048576 }')
  cat "$db"/*.db >/dev/null
  read -r cat_s cat_kb cat_cpu < <(measure sh -c "cat '$db'/*.db > /dev/null")
  rm -rf "$work/out-$size"
  for op in cat info full scan validate convert; do
    case $op in
      cat) s=$cat_s; kb=$cat_kb; cpu=$cat_cpu ;;
      info) read -r s kb cpu < <(measure "$hpcdb" info "$db") ;;
      full) read -r s kb cpu < <(measure "$build/bench_access" full "$db") ;;
      scan) read -r s kb cpu < <(measure "$build/bench_access" scan "$db") ;;
      validate) read -r s kb cpu < <(measure "$hpcdb" validate "$db") ;;
      convert) read -r s kb cpu < <(measure "$hpcdb" convert --force "$db" "$work/out-$size") ;;
    esac
    printf '| %s | %s | %s | %s | %s | %s | %s | %.0f |\n' "$P × $C × $M" "$mb" "$op" "$s" "$cpu" \
      "$(rate "$bytes" "$s")" "$(ratio "$cat_s" "$s")" "$(awk -v k="$kb" 'BEGIN { print k / 1024 }')"
  done
  rm -rf "$work/out-$size"
done
