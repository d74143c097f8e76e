#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# hpcdb record's cost on a compute-bound program (bench/record_work.c: fixed
# work per thread through 12 call levels), with and without frame pointers,
# 1 and 2 threads: without recording, with CPUTIME at 200 Hz and 1 kHz, and
# with the kernel's cpu-clock event at 1 kHz (CPU-time timers fire on the
# scheduler tick, so CPUTIME cannot sample faster than the kernel's HZ; the
# "samples/CPU s" column shows the rate reached).
# Each cell: the best of RUNS runs (default 5, alternating with and without,
# so that load from other work hits both alike) of wall time and CPU time
# (user + system, GNU time); overheads are against the best run without
# recording. From the files: samples, partial unwinds (the stack did not reach
# the thread's root), libunwind failures (frame pointers then took over) and
# the calling-context tree arenas' memory.
# Usage: bench/record.sh BUILD_DIR [WORK_DIR] [MILLION_OPS_PER_THREAD]
set -euo pipefail
build=$(realpath "${1:?usage: bench/record.sh BUILD_DIR [WORK_DIR] [MILLION_OPS]}")
work=${2:-$build/bench-work/record}
ops=${3:-500}
runs=${RUNS:-5}
hpcdb=$build/hpcdb
events=(none CPUTIME@f200 CPUTIME@f1000 cpu-clock@f1000)
mkdir -p "$work"

# prints "wall_s cpu_s" of one run
one() {
  local t s e
  t=$(mktemp)
  s=$(date +%s%N)
  /usr/bin/time -o "$t" -f "%U %S" "$@" >/dev/null 2>&1
  e=$(date +%s%N)
  awk -v w=$(( (e - s) / 1000000 )) '{printf "%.3f %.3f\n", w / 1000, $1 + $2}' "$t"
  rm -f "$t"
}

min() { grep . | sort -n | head -1; }

# sums an hpcdb-record-* header pair over a measurement's files
pair_sum() { "$hpcdb" dump "$1" | awk -v k="hpcdb-record-$2 =" 'index($0, k) {s += $NF} END {print s + 0}'; }

printf '| binary | threads | event | wall s | CPU s | wall overhead | CPU overhead | samples | samples/CPU s | partial | libunwind failures | CCT arena KiB |\n'
printf '|---|---|---|---|---|---|---|---|---|---|---|---|\n'
for variant in fp nofp; do
  prog=$build/record_work_$variant
  for threads in 1 2; do
    declare -A wall=() cpu=()
    for ev in "${events[@]}"; do wall[$ev]=""; cpu[$ev]=""; done
    for ((r = 0; r < runs; r++)); do
      for ev in "${events[@]}"; do
        if [ "$ev" = none ]; then
          read -r w c < <(one "$prog" "$threads" "$ops")
        else
          read -r w c < <(one "$hpcdb" record --force -e "$ev" -o "$work/$variant-$threads-$ev.m" \
                              "$prog" "$threads" "$ops")
        fi
        wall[$ev]+="$w"$'\n'
        cpu[$ev]+="$c"$'\n'
      done
    done
    w0=$(min <<<"${wall[none]}")
    c0=$(min <<<"${cpu[none]}")
    printf '| %s | %s | none | %s | %s | | | | | | | |\n' "$variant" "$threads" "$w0" "$c0"
    for ev in "${events[@]:1}"; do
      m=$work/$variant-$threads-$ev.m
      awk -v v="$variant" -v t="$threads" -v e="$ev" -v w="$(min <<<"${wall[$ev]}")" \
          -v c="$(min <<<"${cpu[$ev]}")" -v w0="$w0" -v c0="$c0" -v s="$(pair_sum "$m" samples)" \
          -v p="$(pair_sum "$m" samples-partial)" -v f="$(pair_sum "$m" unwind-failures)" \
          -v b="$(pair_sum "$m" cct-bytes)" 'BEGIN {
        printf "| %s | %s | %s | %.3f | %.3f | %+.1f %% | %+.1f %% | %d | %.0f | %d (%.2f %%) | %d (%.2f %%) | %.0f |\n",
          v, t, e, w, c, (w / w0 - 1) * 100, (c / c0 - 1) * 100, s, c ? s / c : 0,
          p, s ? 100 * p / s : 0, f, s ? 100 * f / s : 0, b / 1024 }'
    done
  done
done
