#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# The recorder never harms the program: each stress program (stress.c,
# stress_extra.c, stress_cxx.cc) runs once alone and RUNS times under hpcdb
# record; its output and exit status must be the same each time, and the
# measurement must be there and validate. Prints a line per program (runs,
# harmed, exit status, wall time and peak resident memory alone and recorded);
# exit 1 when any run was harmed. A program is NAME or NAME:ARG (e.g.
# threads:2000, long-run:600). Without programs, the quick list ctest runs
# (bench/record_stress.sh runs the whole suite: 10,000 threads, a long run).
#   stress.sh HPCDB BIN_DIR WORK_DIR RUNS [PROGRAM...]
set -u
hpcdb=$1 bin=$(realpath "$2") work=$3 runs=$4
shift 4
programs=${*:-threads:2000 threads-at-once fork-tree exec-chain vfork-exec own-sigprof own-sigalrm sigaltstack
  longjmp-handler deep-recursion dlopen-loop exit-from-thread close-all select-sleeps exceptions segfault abort
  fork-threads signal-storm blocked-signals posix-spawn malloc-threads file-size-limit}
rm -rf "$work" && mkdir -p "$work" || exit 1
harmed_total=0 runs_total=0
now() { date +%s.%N; }
# peak resident KiB of a command and its children (GNU time's %M, the largest of them; 0 without GNU time)
timed() {
  local out=$1; shift
  if [ -x /usr/bin/time ]; then /usr/bin/time -q -o "$out" -f %M "$@"; else echo 0 > "$out"; "$@"; fi
}
peak() { tail -1 "$1"; }
for spec in $programs; do
  p=${spec%%:*} arg=${spec#*:}
  [ "$arg" = "$spec" ] && arg=""
  cmd=("$bin/record_stress" "$p" $arg)
  if [ "$p" = exceptions ]; then
    [ -x "$bin/record_stress_cxx" ] || { echo "exceptions: not built (no C++ compiler found by CMake)"; continue; }
    cmd=("$bin/record_stress_cxx")
  fi
  t0=$(now)
  timed "$work/$p.rss" "${cmd[@]}" > "$work/$p.alone" 2> /dev/null
  want=$?
  t1=$(now)
  harmed=0 rec_time=0 rec_rss=0
  for r in $(seq "$runs"); do
    m=$work/$p.m$r
    t2=$(now)
    timed "$work/$p.rss$r" "$hpcdb" record -o "$m" "${cmd[@]}" > "$work/$p.out$r" 2> "$work/$p.err$r"
    rc=$?
    t3=$(now)
    rec_time=$(echo "$rec_time + $t3 - $t2" | bc)
    [ "$(peak "$work/$p.rss$r")" -gt "$rec_rss" ] && rec_rss=$(peak "$work/$p.rss$r")
    why=""
    [ $rc -eq $want ] || why="exit status $rc, alone $want"
    cmp -s "$work/$p.alone" "$work/$p.out$r" || why="$why; output differs: $(head -c 200 "$work/$p.out$r")"
    ls "$m"/*.hpcrun > /dev/null 2>&1 || why="$why; no .hpcrun file"
    "$hpcdb" validate --errors-only "$m" > "$work/$p.validate$r" 2>&1 || why="$why; the measurement does not validate"
    if [ -n "$why" ]; then
      harmed=$((harmed + 1))
      echo "HARMED: $spec run $r: $why"
      head -5 "$work/$p.err$r"
    fi
    [ "$harmed" -gt 0 ] || rm -rf "$m" # 10,000 threads' files add up
  done
  alone=$(echo "$t1 - $t0" | bc)
  printf "%-20s runs %d  harmed %d  exit %3d  alone %6.2f s %7d KiB  recorded %6.2f s (mean) %7d KiB (peak)\n" \
    "$spec" "$runs" "$harmed" "$want" "$alone" "$(peak "$work/$p.rss")" "$(echo "$rec_time / $runs" | bc -l)" "$rec_rss"
  harmed_total=$((harmed_total + harmed)) runs_total=$((runs_total + runs))
done
echo "$(echo $programs | wc -w) programs, $runs_total recorded runs, $harmed_total harmed"
[ $harmed_total -eq 0 ]
