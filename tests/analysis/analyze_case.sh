#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Analysis acceptance cases, run by ctest:
#   analyze_case.sh HPCDB SAMPLES OUT reference NAME  - analyze --ignore-structs NAME.m, validate, diff against expected/NAME.nostruct.d
#   analyze_case.sh HPCDB SAMPLES OUT structure NAME  - analyze NAME.m with its structs/, validate, diff against expected/NAME.d
#   analyze_case.sh HPCDB SAMPLES OUT badstruct       - a broken structure file and no binary: warnings naming both, offsets
#   analyze_case.sh HPCDB SAMPLES OUT replace         - a structure file naming the binary where --replace-path puts it
#   analyze_case.sh HPCDB SAMPLES OUT recorded PROGRAM - hpcdb record of a -O2 -g program, then analyze with no
#                                                       structure file: its functions and lines by name
#   analyze_case.sh HPCDB SAMPLES OUT jobs NAME       - -j 1, 2 and 3 give byte-identical databases, and
#                                                       without huge pages (GLIBC_TUNABLES) too
#   analyze_case.sh HPCDB SAMPLES OUT batches GEN     - gen_measurements' 48 threads: -j 1, 2 and 3 byte-identical
#                                                       (many batches: memory for the next one made ready ahead)
#   analyze_case.sh HPCDB SAMPLES OUT broken          - one truncated file among good ones: warning + database; --strict fails
#   analyze_case.sh HPCDB SAMPLES OUT period PROGRAM   - hpcdb record with a software perf event, the same files with
#                                                       the event's period set to P: every value P times, as hpcprof
#                                                       scales them; the period-1 metric unchanged
#   analyze_case.sh HPCDB SAMPLES OUT openmp NAME     - the OpenMP worker's region placed under the master's, sums kept
#   analyze_case.sh HPCDB SAMPLES OUT refuse          - an existing database is not overwritten without --force
set -u
# meta.db's identifier-name table, which hpcdb diff does not compare: hpcprof's exactly
same_kinds() {
  diff <("$hpcdb" dump "$1" | grep '^kind ') <("$hpcdb" dump "$2" | grep '^kind ') ||
    fail "identifier names differ from hpcprof's (< hpcprof, > ours)"
}
hpcdb=$1 samples=$2 out=$3 case=$4 name=${5:-}
meas=$samples/hpcrun
[ -d "$meas" ] || { echo "sample data not found at $meas: skipped"; exit 77; }
rm -rf "$out" && mkdir -p "$out"
fail() { echo "FAIL: $*"; exit 1; }

case $case in
reference)
  [ -d "$meas/$name.m" ] || { echo "sample $name.m not found: skipped"; exit 77; }
  "$hpcdb" analyze --quiet --ignore-structs --openmp raw "$meas/$name.m" -o "$out/db" || fail "analyze exited $?"
  "$hpcdb" validate "$out/db" || fail "validate exited $?"
  "$hpcdb" diff "$meas/expected/$name.nostruct.d" "$out/db" || fail "differs from hpcprof's database"
  same_kinds "$meas/expected/$name.nostruct.d" "$out/db"
  ;;
openmp)
  # hpcrun's measurement of an OpenMP program (2 threads, GNU libgomp): the worker's region goes
  # under the master's GOMP_parallel; sums per function and the total stay the raw database's
  "$hpcdb" analyze --quiet "$meas/$name.m" -o "$out/db" || fail "analyze exited $?"
  "$hpcdb" validate --errors-only "$out/db" || fail "validate exited $?"
  "$hpcdb" analyze --quiet --openmp raw "$meas/$name.m" -o "$out/raw" || fail "analyze --openmp raw exited $?"
  "$hpcdb" report --threshold 0 "$out/raw" | grep -A2 "^  <application thread>" | grep -q "main._omp_fn.0" ||
    fail "raw: no worker region under its thread's root"
  python3 "$(dirname "$0")/../realapps/check_tree.py" "$hpcdb" "$out/db" "region=main._omp_fn.0@GOMP_parallel [libgomp.so.1.0.0]" \
    "same-as=$out/raw" || fail "the worker's region"
  ;;
structure)
  "$hpcdb" analyze --openmp raw "$meas/$name.m" -o "$out/db" 2> "$out/stderr" || { cat "$out/stderr"; fail "analyze exited $?"; }
  ! grep -q warning "$out/stderr" || { cat "$out/stderr"; fail "warnings"; }
  "$hpcdb" validate "$out/db" || fail "validate exited $?"
  "$hpcdb" diff "$meas/expected/$name.d" "$out/db" || fail "differs from hpcprof's database"
  same_kinds "$meas/expected/$name.d" "$out/db"
  ;;
badstruct)
  mkdir -p "$out/meas/structs"
  cp "$meas"/small.m/*.hpcrun "$meas"/small.m/*.hpctrace "$out/meas/"
  bad=$out/meas/structs/testmeas-small.hpcstruct
  head -c 3000 "$meas/small.m/structs/testmeas-small.hpcstruct" > "$bad"
  "$hpcdb" analyze "$out/meas" -o "$out/db" 2> "$out/stderr" || { cat "$out/stderr"; fail "analyze exited $?"; }
  grep -q "warning: structure file ignored (.*testmeas-small): $bad: line [0-9]*: xml: " "$out/stderr" ||
    { cat "$out/stderr"; fail "no warning naming $bad"; }
  grep -q "warning: binary not found: /builds/hpctoolkit/hpctoolkit/builddir/tests/data/meas/testmeas-small " "$out/stderr" ||
    { cat "$out/stderr"; fail "no warning naming the missing binary"; }
  "$hpcdb" diff "$meas/expected/small.nostruct.d" "$out/db" || fail "differs from hpcprof's database without structure"
  ;;
replace)
  mkdir -p "$out/meas/structs" "$out/other"
  cp "$meas"/small.m/*.hpcrun "$meas"/small.m/*.hpctrace "$out/meas/"
  sed 's|n="/builds/hpctoolkit/hpctoolkit/builddir/tests/data/meas/testmeas-small"|n="/opt/moved/testmeas-small"|' \
    "$meas/small.m/structs/testmeas-small.hpcstruct" > "$out/other/moved.hpcstruct"
  "$hpcdb" analyze --quiet --struct "$out/other/moved.hpcstruct" "$out/meas" -o "$out/plain" || fail "analyze exited $?"
  "$hpcdb" diff "$meas/expected/small.nostruct.d" "$out/plain" > /dev/null || fail "a structure file of another path was used"
  "$hpcdb" analyze --quiet --struct "$out/other" -R /builds/hpctoolkit/hpctoolkit/builddir/tests/data/meas=/opt/moved \
    "$out/meas" -o "$out/db" || fail "analyze -R exited $?"
  "$hpcdb" diff "$meas/expected/small.d" "$out/db" || fail "differs from hpcprof's database with structure"
  ;;
recorded)
  [ -x "$name" ] || { echo "test program $name not built: skipped"; exit 77; }
  "$hpcdb" record -o "$out/meas" -- "$name" 38 > /dev/null 2> "$out/record.err" # fib(38): about a second
  ls "$out/meas"/*.hpcrun > /dev/null 2>&1 || { cat "$out/record.err"; echo "record made no measurement here: skipped"; exit 77; }
  "$hpcdb" analyze "$out/meas" -o "$out/db" 2> "$out/stderr" || { cat "$out/stderr"; fail "analyze exited $?"; }
  "$hpcdb" validate "$out/db" > /dev/null || fail "the database does not validate"
  "$hpcdb" report --top 30 "$out/db" > "$out/report" || fail "report exited $?"
  for want in "  main " "  fib " "kernels.c:[0-9]"; do
    grep -q "$want" "$out/report" || { cat "$out/report"; fail "no '$want' in the report"; }
  done
  ;;
jobs)
  for j in 1 2 3; do "$hpcdb" analyze --quiet -j $j "$meas/$name.m" -o "$out/j$j" || fail "-j $j exited $?"; done
  # analyze starts itself again with glibc's heap in huge pages, unless GLIBC_TUNABLES says otherwise
  GLIBC_TUNABLES=glibc.malloc.hugetlb=0 "$hpcdb" analyze --quiet -j 2 "$meas/$name.m" -o "$out/small-pages" ||
    fail "GLIBC_TUNABLES=glibc.malloc.hugetlb=0: exited $?"
  for f in meta.db profile.db cct.db trace.db; do
    cmp "$out/j1/$f" "$out/j2/$f" && cmp "$out/j1/$f" "$out/j3/$f" || fail "$f differs between -j values"
    cmp "$out/j1/$f" "$out/small-pages/$f" || fail "$f differs without huge pages"
  done
  ;;
batches)
  "$name" --threads 48 --contexts 3000 --samples 50 --shared 0.5 -o "$out/meas" || fail "gen exited $?"
  for j in 1 2 3; do "$hpcdb" analyze --quiet -j $j "$out/meas" -o "$out/j$j" || fail "-j $j exited $?"; done
  for f in meta.db profile.db cct.db trace.db; do
    cmp "$out/j1/$f" "$out/j2/$f" && cmp "$out/j1/$f" "$out/j3/$f" || fail "$f differs between -j values"
  done
  ;;
broken)
  mkdir -p "$out/meas"
  cp "$meas"/loops-cputime-t.m/*.hpcrun "$meas"/loops-cputime-t.m/*.hpctrace "$out/meas/"
  victim=$(ls "$out/meas"/*.hpcrun | tail -n 1)
  head -c 3000 "$victim" > "$out/cut" && mv "$out/cut" "$victim"
  "$hpcdb" analyze "$out/meas" -o "$out/db" 2> "$out/stderr" || fail "analyze exited $? with one broken file"
  grep -q "warning: skipped $victim" "$out/stderr" || { cat "$out/stderr"; fail "no warning naming $victim"; }
  grep -q "3 profiles (1 skipped)" "$out/stderr" || { cat "$out/stderr"; fail "summary does not count the skip"; }
  "$hpcdb" validate "$out/db" || fail "the database of the good files does not validate"
  if "$hpcdb" analyze --strict "$out/meas" -o "$out/strict" 2> "$out/stderr2"; then fail "--strict accepted a broken file"; fi
  [ ! -e "$out/strict" ] || fail "--strict left a database or an empty directory behind"
  ;;
period)
  [ -x "$name" ] || { echo "test program $name not built: skipped"; exit 77; }
  here=$(dirname "$0")
  if ! "$hpcdb" record -o "$out/m1" -e CPUTIME -e page-faults@1 -- "$name" 0.3 > /dev/null 2> "$out/record.err"; then
    cat "$out/record.err"; echo "software perf events are not allowed here: skipped"; exit 77
  fi
  cp -r "$out/m1" "$out/m4096"
  python3 "$here/set_period.py" page-faults 4096 "$out/m4096"/*.hpcrun || fail "could not set the period"
  for m in m1 m4096; do
    "$hpcdb" analyze --quiet --ignore-structs "$out/$m" -o "$out/$m.d" || fail "analyze $m exited $?"
    "$hpcdb" validate --errors-only "$out/$m.d" || fail "$m.d does not validate"
    "$hpcdb" export --format csv "$out/$m.d" -o "$out/$m.csv" || fail "export $m exited $?"
  done
  python3 - "$out/m1.csv" "$out/m4096.csv" <<'PY' || fail "values not scaled by the period"
import csv, sys
def rows(p):
    with open(p) as f:
        return {(r["context"], r["profile"], r["metric"]): r for r in csv.DictReader(f)}
one, scaled = rows(sys.argv[1]), rows(sys.argv[2])
assert one.keys() == scaled.keys(), "different contexts or metrics"
faults = 0
for k, r in one.items():
    factor = 4096 if k[2] == "page-faults" else 1
    for col in ("inclusive", "exclusive"):
        a, b = float(r[col] or 0), float(scaled[k][col] or 0)
        assert b == a * factor, f"{k} {col}: {b}, expected {a} x {factor}"
    faults += k[2] == "page-faults" and float(r["exclusive"] or 0) > 0
assert faults > 0, "no page-fault samples"
print(f"{len(one)} values compared, {faults} page-fault contexts scaled by 4096")
PY
  ;;
refuse)
  "$hpcdb" analyze --quiet "$meas/small.m" -o "$out/db" || fail "first analyze exited $?"
  before=$(md5sum "$out/db/meta.db")
  if "$hpcdb" analyze --quiet "$meas/loops-cputime-t.m" -o "$out/db" 2>/dev/null; then fail "overwrote without --force"; fi
  [ "$before" = "$(md5sum "$out/db/meta.db")" ] || fail "the existing database changed"
  "$hpcdb" analyze --quiet --force "$meas/loops-cputime-t.m" -o "$out/db" || fail "--force exited $?"
  ;;
*) fail "unknown case $case" ;;
esac
echo "1 passed, 0 failed"
