#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Real applications through hpcdb (the inputs of tests/realapps/run_app.sh): Debian's lammps (an LJ
# melt) and hpcc (HPL N=1500, DGEMM...) on 2 MPI ranks, and the OpenMP mini-application on 2
# threads. For each, interleaved in one run (ROUNDS rounds, default 3; the median is printed):
#   - the program alone and under `hpcdb record` (wall and CPU seconds: the recording's overhead);
#   - `hpcdb analyze` of that measurement with program structure (the binaries read, as every real
#     run does) and with --ignore-structs (wall and CPU seconds: what structure costs).
# Usage: bench/real_apps.sh BUILD_DIR [WORK_DIR]   (ROUNDS=N; apps missing from Debian are skipped)
set -euo pipefail
build=$(realpath "${1:?usage: bench/real_apps.sh BUILD_DIR [WORK_DIR]}")
work=${2:-$build/bench-real-apps}
rounds=${ROUNDS:-3}
hpcdb=$build/hpcdb
src=$(cd "$(dirname "$0")/../tests/realapps" && pwd)
mkdir -p "$work"
cd "$work"
mpirun=(mpirun --allow-run-as-root --oversubscribe -np 2)
export OMP_WAIT_POLICY=passive

# "wall cpu" seconds of a command (GNU time: elapsed, user + system of it and its children)
timed() {
  /usr/bin/time -o time.txt -f "%e %U %S" "$@" > /dev/null 2>&1 || { echo "failed: $*" >&2; return 1; }
  awk '{ printf "%.2f %.2f\n", $1, $2 + $3 }' time.txt
}
median() { sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }

# one application: NAME, then its command line: a launcher's words, then prog_words words of the program
bench_app() {
  local name=$1
  shift
  local r
  : > "$name.plain" && : > "$name.rec" && : > "$name.struct" && : > "$name.ignore"
  for ((r = 0; r < rounds; r++)); do
    timed "$@" >> "$name.plain"
    rm -rf "$name.m"
    # the launcher's words, then hpcdb record, then the program's (prog_words of them)
    timed "${@:1:$(($# - prog_words))}" "$hpcdb" record -o "$name.m" "${@:$(($# - prog_words + 1))}" >> "$name.rec"
    rm -rf "$name.db" "$name.nostruct.db"
    timed "$hpcdb" analyze -j 2 "$name.m" -o "$name.db" >> "$name.struct"
    timed "$hpcdb" analyze -j 2 --ignore-structs "$name.m" -o "$name.nostruct.db" >> "$name.ignore"
  done
  for k in plain rec struct ignore; do
    printf "%s %s %s\n" "$(cut -d' ' -f1 "$name.$k" | median)" "$(cut -d' ' -f2 "$name.$k" | median)" "$k"
  done > "$name.medians"
  awk -v app="$name" -v mb="$(du -sk "$name.m" | cut -f1)" '
    { wall[$3] = $1; cpu[$3] = $2 }
    END {
      printf "%-8s record: %6.2f s -> %6.2f s wall (%.2fx), %6.2f -> %6.2f s CPU (%.2fx); measurement %d KiB\n",
             app, wall["plain"], wall["rec"], wall["rec"] / wall["plain"], cpu["plain"], cpu["rec"], cpu["rec"] / cpu["plain"], mb
      printf "%-8s analyze -j 2: structure %5.2f s wall %5.2f s CPU, --ignore-structs %5.2f s wall %5.2f s CPU: %.2fx CPU\n",
             app, wall["struct"], cpu["struct"], wall["ignore"], cpu["ignore"], cpu["struct"] / cpu["ignore"]
    }' "$name.medians"
}

echo "machine: $(nproc) cores, $(awk '/MemTotal/ {printf "%.0f GiB", $2/1048576}' /proc/meminfo), $(uname -sr)"
echo "load at start: $(cut -d' ' -f1-3 /proc/loadavg); $rounds rounds, medians"
if command -v lmp > /dev/null && command -v mpirun > /dev/null; then
  sed -n '/^  cat > in.melt/,/^EOF/p' "$src/run_app.sh" | sed '1d;$d' > in.melt
  prog_words=7
  OMP_NUM_THREADS=1 bench_app lammps "${mpirun[@]}" lmp -in in.melt -log none -screen none
fi
if command -v hpcc > /dev/null && command -v mpirun > /dev/null; then
  sed -n '/^  cat > hpccinf.txt/,/^EOF/p' "$src/run_app.sh" | sed '1d;$d' > hpccinf.txt
  prog_words=1
  OMP_NUM_THREADS=1 bench_app hpcc "${mpirun[@]}" hpcc
fi
gcc -O2 -g -fopenmp "$src/omp_regions.c" -o omp_regions -lm
prog_words=2
OMP_NUM_THREADS=2 bench_app omp ./omp_regions 100
echo "load at end: $(cut -d' ' -f1-3 /proc/loadavg)"
