#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Counts the instructions `hpcdb-mpi analyze` executes, summed over its ranks, against `hpcdb analyze
# -j 2` on the same measurements, under valgrind's callgrind. The count is in user space only (the
# program, libc, Open MPI) and does not depend on the load or on how many cores the ranks share: on a
# machine with fewer cores than ranks it is the one repeatable measure of the ranks' work (CPU seconds
# there carry the oversubscription's cache and scheduling costs). The kernel's share (page cache,
# page zeroing, MPI's single-copy transfers) is not in it: bench/analyze_mpi_compare.py times that.
# Each database is compared byte for byte with hpcdb analyze's. Per-function counts are kept in
# WORK/SIZE/*.out (callgrind_annotate reads them).
# Usage: bench/analyze_mpi_instructions.sh BUILD_DIR MEAS_ROOT WORK_DIR [SIZES...]
#   (MEAS_ROOT/meas-SIZE from bench/analyze.sh or bench/analyze_mpi.sh; NP='2 4' by default)
set -euo pipefail
build=${1:?usage: bench/analyze_mpi_instructions.sh BUILD_DIR MEAS_ROOT WORK_DIR [SIZES...]}
meas_root=${2:?MEAS_ROOT}
work=${3:?WORK_DIR}
shift 3
sizes=("$@")
[ ${#sizes[@]} -gt 0 ] || sizes=(256x10000-s0.8-d0.25 64x100000-s0.8-d0.25)
read -r -a nps <<<"${NP:-2 4}"
# hpcdb starts itself again to set this tunable (src/process/allocator.c): set, callgrind follows one process
export GLIBC_TUNABLES=glibc.malloc.hugetlb=1

total() { awk '/^totals:/ {s += $2} END {printf "%.0f\n", s}' "$@"; }
same() { for f in profile.db cct.db meta.db trace.db metrics/default.yaml; do cmp -s "$1/$f" "$2/$f" || { echo no; return; }; done; echo yes; }

echo "machine: $(nproc) cores, $(uname -sr), $(valgrind --version); instructions are not timed, the load does not change them"
echo "command: NP='${nps[*]}' bench/analyze_mpi_instructions.sh $build $meas_root $work ${sizes[*]}"
echo
echo "| input | run | instructions (10^9), each rank | sum | ÷ hpcdb analyze -j 2 | same bytes |"
echo "|---|---|---|---|---|---|"
for size in "${sizes[@]}"; do
  dir=$work/$size
  rm -rf "$dir"
  mkdir -p "$dir"
  valgrind -q --tool=callgrind --callgrind-out-file="$dir/single.out" \
    "$build/hpcdb" analyze -j 2 -o "$dir/db-single" "$meas_root/meas-$size" 2> "$dir/single.err"
  single=$(total "$dir/single.out")
  printf '| %s | hpcdb analyze -j 2 | | %.3f | 1 | |\n' "$size" "$(echo "$single / 1000000000" | bc -l)"
  for np in "${nps[@]}"; do
    mpirun --allow-run-as-root --oversubscribe -x GLIBC_TUNABLES -np "$np" \
      valgrind -q --tool=callgrind --callgrind-out-file="$dir/np$np.%q{OMPI_COMM_WORLD_RANK}.out" \
      "$build/hpcdb-mpi" analyze -o "$dir/db-np$np" "$meas_root/meas-$size" 2> "$dir/np$np.err"
    each=$(for ((r = 0; r < np; r++)); do total "$dir/np$np.$r.out"; done | awk '{printf "%s%.3f", (NR > 1 ? " / " : ""), $1 / 1e9}')
    sum=$(total "$dir"/np"$np".*.out)
    printf '| %s | hpcdb-mpi -np %s | %s | %.3f | %.3f× | %s |\n' "$size" "$np" "$each" \
      "$(echo "$sum / 1000000000" | bc -l)" "$(echo "$sum / $single" | bc -l)" "$(same "$dir/db-single" "$dir/db-np$np")"
  done
done
