#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# The README's tour, run as written: every ```sh block of README.md, in order, in one shell (they
# share $DB and $T), from a folder where `build/` is the build tree and `../shared/data` the samples.
# A command that cannot run here is replaced by a line saying why; any other command that fails
# fails the test. usage: run_tour.sh README BUILD_DIR SAMPLES OUTDIR
set -u
readme=$1 build=$2 samples=$3 out=$4
[ -d "$samples" ] || { echo "sample data not found at $samples: skipped"; exit 77; }
rm -rf "$out" && mkdir -p "$out/work" "$out/shared"
ln -s "$(cd "$build" && pwd)" "$out/work/build"
ln -s "$(cd "$samples" && pwd)" "$out/shared/data"
export TMPDIR=$out # the tour's mktemp -d lands here

# Why a command (its first line) cannot run here; nothing when it can.
why_not() {
  case $1 in
  make*) echo "make builds and tests the whole tree; ctest, which runs this test, is part of it" ;;
  mpirun*)
    command -v mpirun > /dev/null || { echo "no mpirun here"; return; }
    [ -x "$build/hpcdb-mpi" ] || echo "hpcdb-mpi is not built (CMake found no MPI)" ;;
  *record*record_ratio*) [ -x "$build/tests/record/record_ratio" ] || echo "the record test program is not built" ;;
  *libm.so.6*) [ -e /usr/lib/x86_64-linux-gnu/libm.so.6 ] || echo "no /usr/lib/x86_64-linux-gnu/libm.so.6 on this machine" ;;
  *python3*) [ -z "${HPCDB_SANITIZED:-}" ] ||
    echo "a sanitizer build's Python extension needs libasan preloaded; tests/python runs the binding under it" ;;
  esac
}

# The blocks, with each command echoed before it runs and the ones that cannot run replaced.
awk '/^```sh$/ {inside = 1; next} /^```$/ {inside = 0; next} inside' "$readme" > "$out/tour.sh.in"
n_run=0 n_skip=0 command=
{
  echo "set -e"
  while IFS= read -r line; do
    [ -z "$command" ] && case $line in ''|'#'*) continue ;; esac
    command=${command:+$command$'\n'}$line
    bash -n -c "$command" 2> /dev/null || continue # a quoted argument goes on: the next line too
    why=$(why_not "$command")
    if [ -n "$why" ]; then
      printf 'echo %q\n' "skipped: $command ($why)"
      n_skip=$((n_skip + 1))
    else
      printf 'echo %q\n' "\$ $command"
      printf '%s\n' "$command"
      n_run=$((n_run + 1))
    fi
    command=
  done < "$out/tour.sh.in"
  echo "echo 'the tour ran to its end'"
} > "$out/tour.sh"
[ $n_run -gt 20 ] || { echo "FAIL: only $n_run commands found in $readme"; exit 1; }
(cd "$out/work" && bash "$out/tour.sh") > "$out/tour.log" 2>&1
status=$?
grep '^skipped: ' "$out/tour.log"
if [ $status != 0 ] || ! tail -1 "$out/tour.log" | grep -q 'the tour ran to its end'; then
  tail -20 "$out/tour.log"
  echo "FAIL: a README command failed (exit $status; the whole log: $out/tour.log)"
  exit 1
fi
echo "$n_run README commands ran, $n_skip skipped (above, each with its reason)"
echo "1 passed, 0 failed"
