#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Benchmarks `hpcdb-mpi analyze` against `hpcdb analyze` on synthetic measurements (the same
# bench/gen_measurements workload as bench/analyze.sh): for each size, hpcdb analyze -j 1 and -j 2,
# then mpirun -np 1, 2, 4 (one thread per rank): wall time of the whole job (mpirun included), each
# rank's wall and CPU time, peak RSS and bytes sent to other ranks (hpcdb-mpi --report; the per-phase
# lines go to stderr), and whether
# the database is byte-identical to hpcdb analyze's. One run each (RUNS=N: the best of N).
# Usage: bench/analyze_mpi.sh BUILD_DIR [WORK_DIR] [SIZES...]   (a size is THREADSxCONTEXTS)
# MEAS_ROOT=DIR: take DIR/meas-SIZE when it exists (measurements generated before, e.g. by bench/analyze.sh)
# instead of generating them; MPI_ARGS: more mpirun arguments (e.g. --mca mpi_yield_when_idle 1; hpcdb-mpi
# sleeps while it waits for other ranks by itself, so it needs none).
set -euo pipefail
build=${1:?usage: bench/analyze_mpi.sh BUILD_DIR [WORK_DIR] [SIZES...]}
work=${2:-$build/bench-work}
shift $(( $# >= 2 ? 2 : 1 ))
sizes=("$@")
[ ${#sizes[@]} -gt 0 ] || sizes=(256x10000 64x100000)
runs=${RUNS:-1}
mpiexec=${MPIEXEC:-mpirun}
read -r -a mpi_args <<<"${MPI_ARGS:-}"
mkdir -p "$work"

# best wall time (ms) of $runs runs of a command; its last stderr in $work/stderr; peak RSS (KiB) and
# CPU seconds (user + system) of the last
measure() {
  local best=999999999 s e w
  for _ in $(seq "$runs"); do
    s=$(date +%s%N)
    /usr/bin/time -o "$work/time" -f "%M %U %S" "$@" > /dev/null 2> "$work/stderr" || { cat "$work/stderr" >&2; return 1; }
    e=$(date +%s%N)
    w=$(( (e - s) / 1000000 ))
    [ "$w" -lt "$best" ] && best=$w
  done
  echo "$best $(tail -n 1 "$work/time" | awk '{printf "%s %.2f", $1, $2 + $3}')"
}

same() { for f in profile.db cct.db meta.db trace.db metrics/default.yaml; do cmp -s "$1/$f" "$2/$f" || { echo no; return; }; done; echo yes; }

echo "machine: $(nproc) cores, $(awk '/MemTotal/ {printf "%.0f GiB", $2/1048576}' /proc/meminfo), $(uname -sr), load average $(cut -d' ' -f1-3 /proc/loadavg)"
echo "command: RUNS=$runs MPI_ARGS='${mpi_args[*]}' bench/analyze_mpi.sh $build $work ${sizes[*]}"
echo
echo '| threads × contexts | run | wall s | CPU s (sum of ranks) | peak RSS MiB (per rank) | sent MiB (all ranks) | same bytes |'
echo '|---|---|---|---|---|---|---|'
for size in "${sizes[@]}"; do
  IFS=x read -r T C <<<"$size"
  meas=$work/meas-$size-s0.8-d0.25
  [ -n "${MEAS_ROOT:-}" ] && [ -d "$MEAS_ROOT/meas-$size" ] && meas=$MEAS_ROOT/meas-$size
  [ -d "$meas" ] || "$build/gen_measurements" --threads "$T" --contexts "$C" --metrics 4 --depth 16 \
    --samples 1000 --shared 0.8 --density 0.25 -o "$meas"
  for j in 1 2; do
    read -r ms kb cpu < <(measure "$build/hpcdb" analyze --quiet --force -j "$j" "$meas" -o "$work/ref-j$j")
    printf '| %s | hpcdb analyze -j %s | %.2f | %s | %.0f | | |\n' "$T × $C" "$j" "$(awk -v m="$ms" 'BEGIN{print m/1000}')" \
      "$cpu" "$(awk -v k="$kb" 'BEGIN{print k/1024}')"
  done
  for np in 1 2 4; do
    read -r ms _ _ < <(measure "$mpiexec" --allow-run-as-root --oversubscribe "${mpi_args[@]}" -np "$np" "$build/hpcdb-mpi" analyze --quiet \
      --force --report "$meas" -o "$work/mpi")
    cpu=$(grep -o '[0-9.]* s CPU' "$work/stderr" | awk '{s += $1} END {printf "%.2f", s}')
    rss=$(sort -t' ' -k4n "$work/stderr" | grep -o 'peak RSS [0-9]* KiB' | awk '{printf "%s%.0f", sep, $3/1024; sep=" / "}')
    sent=$(grep -o '[0-9]* bytes sent' "$work/stderr" | awk '{s += $1} END {printf "%.1f", s/1048576}')
    printf '| %s | hpcdb-mpi -np %s | %.2f | %s | %s | %s | %s |\n' "$T × $C" "$np" "$(awk -v m="$ms" 'BEGIN{print m/1000}')" \
      "$cpu" "$rss" "$sent" "$(same "$work/ref-j1" "$work/mpi")"
    grep 'rank' "$work/stderr" | sed 's/^/    /' >&2
  done
  rm -rf "$work/mpi" "$work/ref-j1" "$work/ref-j2"
done
echo "load average at the end: $(cut -d" " -f1-3 /proc/loadavg)"
