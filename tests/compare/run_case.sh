#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# hpcdb compare cases: run_case.sh HPCDB WORK SAMPLES CASE [ARG...]
#   generate GEN        the runs of gen_runs.c into WORK/pair and WORK/scaling
#   expect NAME ARG...  `hpcdb compare ARG...` (@ = WORK, a leading SAMPLES/ = SAMPLES) prints expected/NAME exactly
#   status N ARG...     `hpcdb compare ARG...` exits with status N
#   flamegraph          the differential SVG is well-formed XML with a red (slower) solve
#   own-cube DB         a sample database and its own Cube conversion compare as equal
#   cross-format        HPCToolkit's cpi-mpi against Score-P's cpi (Cube): no metric in common unless
#                       named (exit 2); with --metric "CPUTIME (sec)=time", main, MPI_Bcast and MPI_Reduce
#                       aligned by name across Score-P's program and iteration regions; a legacy
#                       database's CPUTIME (usec) against CPUTIME (sec), converted
set -u
hpcdb=$1 work=$2 samples=$3 case=$4
shift 4
here=$(cd "$(dirname "$0")" && pwd)
fail() { echo "FAIL: $*"; exit 1; }
at() { args=(); for a in "$@"; do a=${a//@/$work}; args+=("${a/#SAMPLES\//$samples/}"); done; }

case $case in
generate) # only its own folders: the record cases work beside them
  rm -rf "$work/pair" "$work/scaling" && mkdir -p "$work" || exit 1
  "$1" pair "$work/pair" && "$1" scaling "$work/scaling" || fail "gen_runs" ;;
expect)
  name=$1; shift; at "$@"
  "$hpcdb" compare "${args[@]}" > "$work/$name.out" 2> "$work/$name.err"; rc=$?
  cat "$work/$name.err"
  [ $rc -le 1 ] || fail "exit status $rc"
  sed "s|$work|@|g; s|$samples/|SAMPLES/|g" "$work/$name.out" | diff -u "$here/expected/$name" - || fail "output differs from expected/$name" ;;
status)
  want=$1; shift; at "$@"
  "$hpcdb" compare "${args[@]}"; rc=$?
  [ $rc = "$want" ] || fail "exit status $rc, expected $want" ;;
flamegraph)
  out=$work/diff.svg
  rm -f "$out"
  "$hpcdb" compare --quiet --flamegraph "$out" "$work/pair/a.d" "$work/pair/b.d" || fail "--flamegraph"
  python3 - "$out" <<'PY' || fail "the SVG"
import sys, xml.etree.ElementTree as ET
ns = {"s": "http://www.w3.org/2000/svg"}
root = ET.parse(sys.argv[1]).getroot()
for g in root.findall("s:g", ns):
    title = g.find("s:title", ns).text
    if title.startswith("solve:"):
        fill = g.find("s:rect", ns).get("fill")
        assert fill.startswith("rgb(255,"), (title, fill)  # B grew: red
        break
else:
    raise SystemExit("no solve frame")
PY
  "$hpcdb" compare --quiet --flamegraph "$out" "$work/pair/a.d" "$work/pair/b.d" 2>/dev/null && fail "an existing output was replaced without --force"
  "$hpcdb" compare --quiet --force --flamegraph "$out" "$work/pair/a.d" "$work/pair/b.d" || fail "--force" ;;
own-cube)
  [ -d "$samples/$1" ] || { echo "sample data not found at $samples: skipped"; exit 77; }
  db=$samples/$1 cube=$work/own-$(basename "$1").cubex csv=$work/own-$(basename "$1").csv
  rm -f "$cube"
  "$hpcdb" convert --to cube "$db" "$cube" 2>/dev/null || fail "convert --to cube"
  "$hpcdb" compare --csv --top 0 --min-share 0 "$db" "$cube" > "$csv" || fail "compare"
  "$hpcdb" compare "$db" "$cube" | sed -n 3,4p
  "$hpcdb" compare "$db" "$cube" | grep -q "0 only in A, 0 only in B" || fail "unaligned nodes"
  # every row: same values both sides (delta 0, ratio 1), inclusive and exclusive, means and max
  python3 - "$csv" <<'PY' || fail "values differ"
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
assert len(rows) > 10, len(rows)
for r in rows:
    assert r["only_in"] == "", r
    for k in ("delta_incl", "delta_excl"):
        assert float(r[k]) == 0, (r["name"], k, r[k])
    for a, b in (("a_mean", "b_mean"), ("a_max", "b_max")):
        assert abs(float(r[a]) - float(r[b])) <= 1e-9 * max(abs(float(r[a])), 1e-300), (r["name"], a, r[a], r[b])
print(len(rows), "rows equal")
PY
  ;;
cross-format)
  a=$samples/hpctoolkit-v4/cpi-mpi b=$samples/cube/scorep-cpi.cubex
  [ -d "$a" ] && [ -f "$b" ] || { echo "sample data not found at $samples: skipped"; exit 77; }
  "$hpcdb" compare "$a" "$b" > /dev/null 2> "$work/cross.err"; rc=$?
  cat "$work/cross.err"
  [ $rc = 2 ] || fail "exit status $rc without a metric in common, expected 2"
  grep -q -- '--metric "CPUTIME (sec)=NAME"' "$work/cross.err" || fail "the message does not name the pair to give"
  for fn in main MPI_Bcast MPI_Reduce; do
    "$hpcdb" compare --metric "CPUTIME (sec)=time" --explain "$fn" "$a" "$b" > "$work/cross-$fn.txt" 2>&1
    cat "$work/cross-$fn.txt"
    grep -q "^  B: .* matched by function name" "$work/cross-$fn.txt" || fail "$fn not aligned by name"
  done
  # the same time metric in two units: microseconds (legacy hpcprof) against seconds, converted
  legacy=$samples/hpctoolkit-legacy/cpi-mpi
  [ -d "$legacy" ] || { echo "sample data not found at $legacy: skipped"; exit 77; }
  "$hpcdb" compare "$legacy" "$a" > "$work/units.txt" || fail "legacy against v4.0"
  head -4 "$work/units.txt"
  grep -q '^A: .*metric "CPUTIME (usec)"' "$work/units.txt" && grep -q '^B: .*metric "CPUTIME (sec)"' "$work/units.txt" ||
    fail "CPUTIME (usec) not compared with CPUTIME (sec)"
  grep -q "^total: A 3.998 s, B 325.975 ms" "$work/units.txt" || fail "the units are not converted" ;;
*) fail "unknown case $case" ;;
esac
echo PASS
