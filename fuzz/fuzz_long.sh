#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# The long libFuzzer campaign (issue 29): every target of build-fuzz (make fuzz)
# for a share of HOURS, the v4.0 and Cube readers (fuzz_hpctk4_*, fuzz_cube_*, fuzz_db_*)
# a four-times share, JOBS targets at a time, then each corpus minimised back
# into fuzz/corpus/<target> (libFuzzer's -merge=1). A summary line per target
# (executions, new corpus size, crashes) goes to OUT/summary.txt; crash inputs
# stay in OUT/<target>/. ctest's fuzz/replay/* keeps replaying the corpus.
#   fuzz/fuzz_long.sh BUILD_FUZZ HOURS JOBS OUT
set -eu
build=$1 hours=$2 jobs=$3 out=$4
src=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$out"
targets=$(cd "$build/fuzz" && ls fuzz_* 2>/dev/null | grep -v '\.' || true)
[ -n "$targets" ] || { echo "no fuzz targets in $build/fuzz (make fuzz builds them with clang)" >&2; exit 2; }
shares=0
for t in $targets; do case $t in fuzz_hpctk4_*|fuzz_cube_*|fuzz_db_*) shares=$((shares + 4));; *) shares=$((shares + 1));; esac; done
unit=$(awk -v h="$hours" -v s="$shares" -v j="$jobs" 'BEGIN { printf "%d", h * 3600 * j / s }')
run_one() {
  t=$1 name=${1#fuzz_}
  case $t in fuzz_hpctk4_*|fuzz_cube_*|fuzz_db_*) secs=$((unit * 4));; *) secs=$unit;; esac
  mkdir -p "$out/$name/new"
  (cd "$out/$name" && nice -n 19 "$build/fuzz/$t" -max_total_time="$secs" -print_final_stats=1 \
     new "$src/corpus/$name" > log 2>&1 || true)
  execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$out/$name/log" | tail -1)
  crashes=$(ls "$out/$name" | grep -c '^crash-\|^leak-\|^timeout-\|^oom-' || true)
  mkdir -p "$out/$name/min"
  "$build/fuzz/$t" -merge=1 "$out/$name/min" "$src/corpus/$name" "$out/$name/new" > "$out/$name/merge.log" 2>&1 &&
    rm -rf "$src/corpus/$name" && mv "$out/$name/min" "$src/corpus/$name"
  echo "$name $secs s: ${execs:-?} executions, $(ls "$src/corpus/$name" | wc -l) corpus files, $crashes findings" \
    >> "$out/summary.txt"
}
running=0
for t in $targets; do
  # at most JOBS at once: `jobs` in a $(...) subshell sees none, so count here and wait for one
  if [ "$running" -ge "$jobs" ]; then wait -n; running=$((running - 1)); fi
  run_one "$t" &
  running=$((running + 1))
done
wait
cat "$out/summary.txt"
