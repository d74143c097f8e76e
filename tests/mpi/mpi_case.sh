#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# hpcdb-mpi acceptance cases, run by ctest. Every database is compared file by file (cmp, and the
# list of files) with `hpcdb analyze` of the same measurements.
#   mpi_case.sh HPCDB HPCDB_MPI MPIEXEC GEN SAMPLES OUT real NAME       - NAME.m on -np 1, 2, 3, 4
#   mpi_case.sh ... generated THREADSxCONTEXTS [ANALYZE ARGS...]         - gen_measurements output, -np 1-4
#   mpi_case.sh ... wide                                                 - gen_measurements output on -np 6 and 9 (groups of
#                                                                          4 ranks and a binomial tree above them), a rank
#                                                                          of the second group failing
#   mpi_case.sh ... skipped                                              - broken files: same warnings, database;
#                                                                          --strict: same error, nothing written
#   mpi_case.sh ... killed                                               - a rank killed mid-run (and one failing):
#                                                                          an error, no database, no temporary
#   mpi_case.sh ... recorded PROGRAM                                     - hpcdb record under mpirun -np 3 (an MPI program),
#                                                                          then -np 1-4 as above
#   mpi_case.sh ... force                                                - an existing database: refused, then replaced
#                                                                          (also with GLIBC_TUNABLES set)
set -u
hpcdb=$1 hpcdb_mpi=$2 mpiexec=$3 gen=$4 samples=$5 out=$6 case=$7 name=${8:-}
shift $(( $# >= 8 ? 8 : 7 ))
meas=$samples/hpcrun
rm -rf "$out" && mkdir -p "$out"
fail() { echo "FAIL: $*"; exit 1; }
run_mpi() {
  local np=$1; shift
  case $1 in analyze|--help) set -- "$hpcdb_mpi" "$@" ;; esac
  timeout 120 "$mpiexec" --allow-run-as-root --oversubscribe -np "$np" "$@"
}

# same_db A B: the same files, byte for byte
same_db() {
  (cd "$1" && find . -type f | sort) > "$out/files.a"
  (cd "$2" && find . -type f | sort) > "$out/files.b"
  cmp -s "$out/files.a" "$out/files.b" || { diff "$out/files.a" "$out/files.b"; fail "$2 has other files than $1"; }
  while read -r f; do cmp "$1/$f" "$2/$f" || fail "$2/$f differs from hpcdb analyze's"; done < "$out/files.a"
}

# against_ranks MEAS [ARGS...]: hpcdb analyze, then hpcdb-mpi on $ranks ranks, all the same
ranks="1 2 3 4"
against_ranks() {
  local m=$1; shift
  "$hpcdb" analyze --quiet "$@" "$m" -o "$out/ref" || fail "hpcdb analyze exited $?"
  for np in $ranks; do
    run_mpi $np analyze --quiet "$@" "$m" -o "$out/np$np" || fail "hpcdb-mpi -np $np exited $?"
    same_db "$out/ref" "$out/np$np"
    rm -rf "$out/np$np"
  done
}

case $case in
real)
  [ -d "$meas/$name.m" ] || { echo "sample data not found at $meas/$name.m: skipped"; exit 77; }
  against_ranks "$meas/$name.m"
  ;;
generated)
  IFS=x read -r threads contexts <<<"$name"
  "$gen" --threads "$threads" --contexts "$contexts" --samples 50 --shared 0.6 -o "$out/meas" || fail "gen exited $?"
  against_ranks "$out/meas" "$@"
  ;;
wide)
  "$gen" --threads 36 --contexts 400 --samples 20 --shared 0.6 -o "$out/meas" || fail "gen exited $?"
  ranks="6 9" against_ranks "$out/meas"
  if HPCDB_MPI_FAIL_RANK=5 HPCDB_MPI_FAIL_AT=tree HPCDB_MPI_FAIL_MODE=error run_mpi 9 analyze "$out/meas" -o "$out/db" \
       2> "$out/error.err"; then fail "a failing rank ended well"; fi
  grep -q "^hpcdb-mpi analyze: rank 5: failure injected after phase tree" "$out/error.err" || { cat "$out/error.err"; fail "no message"; }
  [ ! -e "$out/db" ] && [ ! -e "$out/db.mpi-tmp" ] || fail "a failing rank left a directory"
  ;;
skipped)
  "$gen" --threads 12 --contexts 300 --samples 20 -o "$out/meas" || fail "gen exited $?"
  for k in 2 7 8; do # broken files on different ranks
    victim=$(ls "$out/meas"/*.hpcrun | sed -n ${k}p)
    head -c $(( 200 * k )) "$victim" > "$out/cut" && mv "$out/cut" "$victim"
  done
  "$hpcdb" analyze "$out/meas" -o "$out/ref" 2> "$out/ref.err" || fail "hpcdb analyze exited $?"
  run_mpi 3 analyze "$out/meas" -o "$out/db" 2> "$out/mpi.err" || fail "hpcdb-mpi exited $?"
  grep warning "$out/ref.err" | sed 's/^hpcdb analyze/X/' > "$out/ref.w"
  grep warning "$out/mpi.err" | sed 's/^hpcdb-mpi analyze/X/' > "$out/mpi.w"
  [ "$(grep -c 'warning: skipped' "$out/ref.w")" = 3 ] || { cat "$out/ref.err"; fail "expected 3 skipped files"; }
  diff "$out/ref.w" "$out/mpi.w" || fail "the warnings differ"
  same_db "$out/ref" "$out/db"
  if "$hpcdb" analyze --strict "$out/meas" -o "$out/strict-ref" 2> "$out/strict-ref.err"; then fail "--strict accepted"; fi
  if run_mpi 4 analyze --strict "$out/meas" -o "$out/strict" 2> "$out/strict.err"; then fail "--strict accepted on 4 ranks"; fi
  expected=$(sed 's/^hpcdb analyze: //' "$out/strict-ref.err")
  grep -qF "hpcdb-mpi analyze: $expected" "$out/strict.err" || { cat "$out/strict.err"; fail "not the error hpcdb analyze gives"; }
  [ "$(grep -c '^hpcdb-mpi analyze:' "$out/strict.err")" = 1 ] || { cat "$out/strict.err"; fail "not one message"; }
  [ ! -e "$out/strict" ] && [ ! -e "$out/strict.mpi-tmp" ] || fail "--strict left a directory behind"
  ;;
killed)
  "$gen" --threads 16 --contexts 300 --samples 20 -o "$out/meas" || fail "gen exited $?"
  for at in unify tree propagate write; do
    if HPCDB_MPI_FAIL_RANK=2 HPCDB_MPI_FAIL_AT=$at run_mpi 3 analyze "$out/meas" -o "$out/db" > "$out/kill.err" 2>&1; then
      fail "a killed rank ($at) ended well"
    fi
    [ ! -e "$out/db" ] || fail "a killed rank ($at) left $out/db"
    for _ in 1 2 3 4 5 6 7 8 9 10; do [ -e "$out/db.mpi-tmp" ] && sleep 0.5; done # rank 0's watchdog removes it
    [ ! -e "$out/db.mpi-tmp" ] || fail "a killed rank ($at) left the temporary directory"
    if HPCDB_MPI_FAIL_RANK=1 HPCDB_MPI_FAIL_AT=$at HPCDB_MPI_FAIL_MODE=error run_mpi 3 analyze "$out/meas" -o "$out/db" \
         2> "$out/error.err"; then fail "a failing rank ($at) ended well"; fi
    grep -q "^hpcdb-mpi analyze: rank 1: failure injected after phase $at" "$out/error.err" || { cat "$out/error.err"; fail "no message"; }
    [ "$(grep -v '^hpcdb-mpi analyze: warning:' "$out/error.err" | grep -c '^hpcdb-mpi analyze:')" = 1 ] ||
      { cat "$out/error.err"; fail "not one error message"; } # warnings known before the failure come first
    [ ! -e "$out/db" ] && [ ! -e "$out/db.mpi-tmp" ] || fail "a failing rank ($at) left a directory"
  done
  ;;
recorded)
  [ -x "$name" ] || { echo "the MPI test program was not built: skipped"; exit 77; }
  "$hpcdb" record --help > /dev/null 2>&1 || { echo "hpcdb record is not built here: skipped"; exit 77; }
  run_mpi 3 "$hpcdb" record -t -o "$out/meas" -- "$name" > "$out/record.out" 2>&1 || true
  [ "$(ls "$out/meas"/*.hpcrun 2>/dev/null | wc -l)" -ge 3 ] || { cat "$out/record.out"; echo "hpcdb record wrote no measurements here: skipped"; exit 77; }
  against_ranks "$out/meas"
  ;;
force)
  [ -d "$meas/small.m" ] || { echo "sample data not found at $meas: skipped"; exit 77; }
  run_mpi 2 analyze --quiet "$meas/small.m" -o "$out/db" || fail "first run exited $?"
  before=$(md5sum "$out/db/meta.db")
  if run_mpi 2 analyze --quiet "$meas/loops-cputime-t.m" -o "$out/db" 2> "$out/err"; then fail "overwrote without --force"; fi
  grep -q "a database is already there" "$out/err" || { cat "$out/err"; fail "no message"; }
  [ "$before" = "$(md5sum "$out/db/meta.db")" ] || fail "the existing database changed"
  run_mpi 2 analyze --quiet --force "$meas/loops-cuda-nvidia-t.m" -o "$out/db" || fail "--force exited $?"
  "$hpcdb" analyze --quiet "$meas/loops-cuda-nvidia-t.m" -o "$out/ref" || fail "hpcdb analyze exited $?"
  same_db "$out/ref" "$out/db"
  # a rank restarts itself with glibc.malloc.hugetlb=1 added to GLIBC_TUNABLES, unless it sets it
  for tunables in glibc.malloc.hugetlb=0 glibc.malloc.arena_max=2; do
    GLIBC_TUNABLES=$tunables run_mpi 2 analyze --quiet --force "$meas/loops-cuda-nvidia-t.m" -o "$out/db" ||
      fail "GLIBC_TUNABLES=$tunables: exited $?"
    same_db "$out/ref" "$out/db"
  done
  "$hpcdb_mpi" --help | grep -q "^SYNOPSIS" || fail "--help has no SYNOPSIS"
  ;;
*) fail "unknown case $case" ;;
esac
echo "1 passed, 0 failed"
