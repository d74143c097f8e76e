#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Benchmarks the Python binding on generated databases of the shapes the
# other tools' figures come from (issue 15): Hatchet's per-rank reader (723k
# (node, rank) rows), Hatchet's summary reader (the samples), Pipit (570k
# trace events), pycubexr (10k cnodes x 1,024 locations x 4 metrics), and the
# 1.8 GB v4.0 database. Each line: the best of three fresh interpreters
# (bench/python_bench.py: CASE seconds-to-DataFrame peak-RSS-MB rows
# baseline-MB cpu-seconds, then the database and its size).
# Usage: bench/python.sh BUILD_DIR [WORK_DIR]   (Debian's /usr/bin/python3)
set -euo pipefail
build=${1:?usage: bench/python.sh BUILD_DIR [WORK_DIR]}
work=${2:-$build/bench-python}
here=$(cd "$(dirname "$0")" && pwd)
data=${HPCDB_SAMPLE_DATA:-$here/../../shared/data}
py=${PYTHON:-/usr/bin/python3}
export PYTHONPATH=$build/python
mkdir -p "$work"

gen_v4() { # NAME ARGS...: a v4.0 database from gen_v4db, made once
  local d=$work/$1; shift
  [ -d "$d" ] || "$build/gen_v4db" "$@" -o "$d" >/dev/null
  echo "$d"
}

best() { # CASE PATH: the best of three runs, by time
  local line best="" t
  cat "$2"/*.db "$2" >/dev/null 2>&1 || true # into the page cache
  for _ in 1 2 3; do
    line=$("$py" "$here/python_bench.py" "$1" "$2")
    t=${line#* }; t=${t%% *}
    if [ -z "$best" ] || awk "BEGIN{exit !($t < ${best#* })}" 2>/dev/null; then best="$line"; fi
  done
  local size
  size=$(du -sm "$2" | cut -f1)
  echo "$best $(basename "$2") ${size}MB"
}

hatchet=$(gen_v4 hatchet-72x10000 --profiles 72 --contexts 10000 --metrics 1 --density 1.0)
best values "$hatchet"
for s in hpctoolkit-v4/cpi-mpi hpctoolkit-v4/lmp-openmp hpctoolkit-legacy/cpi-mpi; do
  [ -e "$data/$s" ] && best summary "$data/$s"
done
if [ ! -d "$work/pipit.d" ]; then
  "$build/gen_measurements" --threads 32 --contexts 2000 --samples 1500 -o "$work/pipit.m" >/dev/null
  "$build/hpcdb" analyze "$work/pipit.m" -o "$work/pipit.d" >/dev/null
fi
best events "$work/pipit.d"
best traces "$work/pipit.d"
big=$(gen_v4 big-1024x10000x4 --profiles 1024 --contexts 10000 --metrics 4 --density 1.0)
[ -f "$work/big.cubex" ] || "$build/hpcdb" convert --to cube "$big" "$work/big.cubex" >/dev/null 2>&1
best cube "$work/big.cubex"
best cubedf "$work/big.cubex"
best lazy1 "$big"
best lazyall "$big"
best values1 "$big"
