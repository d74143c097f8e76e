#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Recorded runs compared: record_case.sh CASE HPCDB SLOWED_O2 SLOWED_O0 WORK
#   regression  work_b made 2x slower: compare names it first among the regressions,
#               sizes it x1.6-x2.5 (work_a within x0.8-x1.25), and --fail-if-slower 30% exits 1
#   unchanged   two recordings of the same run: --fail-if-slower 30% exits 0
#   opt-levels  the program at -O0 against -O2 (other addresses, chunk() inlined): work_a and
#               work_b aligned by function name, nothing of theirs only on one side
set -u
case=$1 hpcdb=$2 o2=$3 o0=$4 work=$5
fail() { echo "FAIL: $*"; exit 1; }
rm -rf "$work" && mkdir -p "$work" || exit 1
# cpu-clock samples at regular intervals of the thread's time even on a loaded machine; where the
# kernel does not allow it, CPUTIME (docs/record.md, Events)
ev=cpu-clock@f1000
"$hpcdb" record -e $ev -o "$work/probe.m" true 2>/dev/null || ev=CPUTIME@f1000
rm -rf "$work/probe.m"
run() { # NAME PROGRAM ARGS...: a recording analyzed into WORK/NAME.d
  local name=$1; shift
  "$hpcdb" record -e $ev -o "$work/$name.m" "$@" || fail "record $name"
  "$hpcdb" analyze "$work/$name.m" -o "$work/$name.d" --quiet || fail "analyze $name"
}
row() { # CSV FIELD PATH-SUFFIX: one field of the row whose path ends with the suffix
  python3 - "$@" <<'PY'
import csv, sys
rows = [r for r in csv.DictReader(open(sys.argv[1])) if r["name"].endswith(sys.argv[3])]
if len(rows) != 1: raise SystemExit("%d rows end with %r" % (len(rows), sys.argv[3]))
print(rows[0][sys.argv[2]])
PY
}
within() { python3 -c "import sys; v=float(sys.argv[1]); sys.exit(not (float(sys.argv[2]) <= v <= float(sys.argv[3])))" "$@"; }

case $case in
regression)
  run a "$o2" 1 120
  run b "$o2" 2 120
  "$hpcdb" compare "$work/a.d" "$work/b.d" > "$work/out.txt"; rc=$?
  cat "$work/out.txt"
  [ $rc = 0 ] || fail "compare exit status $rc"
  first=$(grep -A1 "^Largest regressions" "$work/out.txt" | tail -1)
  grep -q "work_b > spin  (inclusive" <<<"$first" || fail "the first regression is not work_b: $first"
  "$hpcdb" compare --csv --top 0 "$work/a.d" "$work/b.d" > "$work/out.csv" || fail "compare --csv"
  rb=$(row "$work/out.csv" ratio_incl "> work_b") || fail "no work_b row"
  ra=$(row "$work/out.csv" ratio_incl "> work_a") || fail "no work_a row"
  echo "work_b x$rb, work_a x$ra"
  within "$rb" 1.6 2.5 || fail "work_b x$rb, expected about x2"
  within "$ra" 0.8 1.25 || fail "work_a x$ra, expected about x1"
  "$hpcdb" compare --quiet --fail-if-slower 30% "$work/a.d" "$work/b.d"; rc=$?
  [ $rc = 1 ] || fail "--fail-if-slower 30% exited $rc on the slowed program, expected 1" ;;
unchanged)
  run a "$o2" 1 120
  run a2 "$o2" 1 120
  "$hpcdb" compare --fail-if-slower 30% "$work/a.d" "$work/a2.d" | tail -3; rc=${PIPESTATUS[0]}
  [ $rc = 0 ] || fail "--fail-if-slower 30% exited $rc on two recordings of the same run, expected 0" ;;
opt-levels)
  run o0 "$o0" 1 60
  run o2 "$o2" 1 120
  for fn in work_a work_b; do
    "$hpcdb" compare --explain "$fn" "$work/o0.d" "$work/o2.d" | tee "$work/explain-$fn.txt"
    grep -q "^  A: context .* made the node; key: function name" "$work/explain-$fn.txt" || fail "$fn: A's context"
    grep -q "^  B: context .* matched by function name" "$work/explain-$fn.txt" || fail "$fn not matched by name"
  done
  # different builds: the functions' offsets in the binaries differ, and yet they align
  grep -o "work_a in [^ ]*" "$work/explain-work_a.txt" | sort -u | awk 'END { exit NR != 2 }' || fail "same offsets?"
  "$hpcdb" compare --csv --top 0 "$work/o0.d" "$work/o2.d" > "$work/out.csv" || fail "compare --csv"
  python3 - "$work/out.csv" <<'PY' || fail "work_a, work_b or their spin not in both"
import csv, sys
rows = [r for r in csv.DictReader(open(sys.argv[1]))
        if r["name"].endswith(("> work_a", "> work_b")) or ("> work_" in r["name"] and r["name"].endswith("> spin"))]
assert len(rows) == 4, [r["name"] for r in rows]
for r in rows:
    assert r["only_in"] == "", (r["name"], r["only_in"])
    print("in both:", r["name"])
PY
  ;;
*) fail "unknown case $case" ;;
esac
echo PASS
