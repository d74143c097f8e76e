#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# The 5-minute tour, run by `make demo`: hpcdb on a real HPCToolkit database
# (when the sample data is there) and on measurements generated here.
# usage: scripts/demo.sh BUILD_DIR SAMPLES
set -euo pipefail
build=$1 samples=$2
hpcdb=$build/hpcdb
out=$build/demo
rm -rf "$out" && mkdir -p "$out"
step() { printf '\n\033[1m== %s\033[0m\n$ %s\n' "$1" "${*:2}"; "${@:2}"; }

db=$samples/hpctoolkit-v4/cpi-mpi
if [ -d "$db" ]; then
  step "what is in a database" "$hpcdb" info "$db"
  step "check it against the v4.0 specification" "$hpcdb" validate --errors-only "$db"
  echo; echo "== the canonical JSON dump (first lines)"
  "$hpcdb" dump --json "$db" > "$out/cpi.json"
  head -c 600 "$out/cpi.json"
  echo " ... ($(wc -c < "$out/cpi.json") bytes in $out/cpi.json)"
  step "re-write it" "$hpcdb" convert "$db" "$out/cpi-copy.d"
  step "compare by calling path, identity and value" "$hpcdb" diff "$db" "$out/cpi-copy.d"
else
  echo "sample data not found at $samples: the database part of the demo is skipped"
fi

legacy=$samples/hpctoolkit-legacy/cpi-mpi
if [ -d "$legacy" ]; then
  step "an older database (experiment.xml 2.x + metric-db files)" "$hpcdb" report --depth 7 "$legacy"
  step "upgraded to v4.0" "$hpcdb" convert "$legacy" "$out/cpi-legacy.d"
  step "nothing lost on the way" "$hpcdb" diff "$legacy" "$out/cpi-legacy.d"
fi
cube=$samples/cube/scorep-cpi.cubex
if [ -f "$cube" ]; then
  step "the same program measured by Score-P (Cube)" "$hpcdb" report --view profiles "$cube"
fi

step "generate measurements of 8 threads (hpcrun 04.00 files)" \
  "$build/gen_measurements" --threads 8 --contexts 2000 --samples 200 -o "$out/synthetic.m"
step "analyze them into a v4.0 database, as hpcprof does" "$hpcdb" analyze -j 2 "$out/synthetic.m" -o "$out/synthetic.d"
step "validate the result" "$hpcdb" validate --errors-only "$out/synthetic.d"
step "its summary" "$hpcdb" info "$out/synthetic.d"
if [ -d "$samples/hpcrun/small.m" ]; then
  step "analyze a real measurement (with its structure files) and compare with hpcprof's own output" \
    "$hpcdb" analyze "$samples/hpcrun/small.m" -o "$out/small.d"
  step "the same calling paths, identities and values as hpcprof" "$hpcdb" diff "$samples/hpcrun/expected/small.d" "$out/small.d"
fi
prog=$(realpath "$build/tests/record/record_ratio" 2>/dev/null || true)
if [ -x "$prog" ] && [ -f "$build/libhpcdb_record.so" ]; then
  step "measure a program ourselves: hpcrun 04.00 files without HPCToolkit" \
    "$hpcdb" record -t -o "$out/ratio.m" "$prog" 1
  mkdir -p "$out/ratio.m/structs"
  step "the program's structure (functions, loops, lines) for the analysis" \
    "$hpcdb" struct "$prog" -o "$out/ratio.m/structs/record_ratio.hpcstruct"
  step "analyze the measurement into a v4.0 database" "$hpcdb" analyze "$out/ratio.m" -o "$out/ratio.d"
  step "the top-down report (heavy:light is 3:1 of CPU time)" "$hpcdb" report "$out/ratio.d"
  step "a flame graph" "$hpcdb" export --format flamegraph "$out/ratio.d" -o "$out/ratio.svg"
fi
echo; echo "demo outputs are in $out"
echo "explore the analyzed database in the browser (Ctrl-C stops the server):"
echo "  $hpcdb view $out/synthetic.d"
