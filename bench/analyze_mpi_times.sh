#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# User and system CPU seconds of `hpcdb analyze -j 2` and of `mpirun -np 2` and `-np 4` of `hpcdb-mpi
# analyze` (mpirun, MPI's start and the ranks: GNU time of mpirun counts its children), ROUNDS rounds
# interleaved so that the machine's changing speed falls on all three alike; one line per run, then
# each configuration's figures by round. The user/system split shows what the instructions
# (bench/analyze_mpi_instructions.sh) do not: the kernel's share.
# Usage: bench/analyze_mpi_times.sh BUILD_DIR MEASUREMENTS [ROUNDS]   (default 5)
set -eu
build=${1:?usage: bench/analyze_mpi_times.sh BUILD_DIR MEASUREMENTS [ROUNDS]}
meas=${2:?MEASUREMENTS}
rounds=${3:-5}
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
mpi=(mpirun --allow-run-as-root --oversubscribe)
for _ in $(seq "$rounds"); do
  for cfg in j2 np2 np4; do
    rm -rf "$out/db"
    case $cfg in
      j2) cmd=("$build/hpcdb" analyze -j 2 -o "$out/db" "$meas") ;;
      np2) cmd=("${mpi[@]}" -np 2 "$build/hpcdb-mpi" analyze -o "$out/db" "$meas") ;;
      np4) cmd=("${mpi[@]}" -np 4 "$build/hpcdb-mpi" analyze -o "$out/db" "$meas") ;;
    esac
    /usr/bin/time -f "$cfg %U %S %e" -o "$out/time" "${cmd[@]}" > /dev/null 2>&1
    echo "$(tail -n 1 "$out/time") load $(cut -d' ' -f1 /proc/loadavg)"
  done
done | awk '{print; u[$1] = u[$1] " " $2; s[$1] = s[$1] " " $3}
  END {for (k in u) print k, "user s:" u[k], "| system s:" s[k]}'
