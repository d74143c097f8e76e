#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# CLI cases, run by ctest: run_case.sh HPCDB SAMPLES OUT CASE [ARG]
#   roundtrip DB     validate; convert; diff against the source; validate the copy;
#                    convert the copy again: byte-identical files; same canonical JSON
#   expect NAME CMD  run `hpcdb CMD...` on a sample (@ = sample dir) and compare stdout
#                    with expected/NAME (exact)
#   status N CMD...  `hpcdb CMD...` must exit with status N
#   analyzed NAME MEAS CMD...  analyze the measurements MEAS (@/...) into a database first, then
#                    as expect, with % in CMD standing for that database
# HPCDB_TERMINAL=1 and COLUMNS in the environment make the report take a person's terminal.
set -u
hpcdb=$1 samples=$2 out=$3 case=$4
shift 4
fail() { echo "FAIL: $*"; exit 1; }
need_samples() { [ -d "$samples" ] || { echo "sample data not found at $samples: skipped"; exit 77; }; }
rm -rf "$out" && mkdir -p "$out"
here=$(cd "$(dirname "$0")" && pwd)

case $case in
roundtrip)
  need_samples
  db=$samples/$1
  "$hpcdb" validate --errors-only "$db" > "$out/validate.txt" || { cat "$out/validate.txt"; fail "validate $db"; }
  "$hpcdb" convert "$db" "$out/one" || fail "convert $db"
  "$hpcdb" diff "$db" "$out/one" > "$out/diff.txt" 2>&1 || { head -20 "$out/diff.txt"; fail "the copy differs"; }
  "$hpcdb" validate --errors-only "$out/one" > "$out/validate1.txt" || { cat "$out/validate1.txt"; fail "the copy is invalid"; }
  "$hpcdb" convert "$out/one" "$out/two" || fail "second convert"
  for f in "$out"/one/*.db; do cmp "$f" "$out/two/$(basename "$f")" || fail "$(basename "$f") is not byte-identical"; done
  [ -f "$out/one/metrics/default.yaml" ] || fail "no metrics/default.yaml in the copy"
  "$hpcdb" dump --json "$db" > "$out/a.json" && "$hpcdb" dump --json "$out/one" > "$out/b.json" || fail "dump --json"
  cmp -s "$out/a.json" "$out/b.json" || fail "canonical JSON differs"
  python3 -c "import json,sys; json.load(open(sys.argv[1]))" "$out/a.json" || fail "dump --json is not JSON"
  ;;
expect | analyzed)
  need_samples
  name=$1
  shift
  if [ "$case" = analyzed ]; then
    "$hpcdb" analyze --quiet "${1//@/$samples}" -o "$out/db" || fail "analyze $1"
    shift
  fi
  args=()
  for a in "$@"; do a=${a//@/$samples}; args+=("${a//%/$out/db}"); done
  "$hpcdb" "${args[@]}" > "$out/stdout" 2> "$out/stderr"
  sed "s|$samples|@|g; s|$out/db|%|g" "$out/stdout" > "$out/actual"
  diff -u "$here/expected/$name" "$out/actual" || fail "output differs from expected/$name"
  ;;
status)
  want=$1
  shift
  args=()
  for a in "$@"; do
    case $a in *@*) need_samples ;; esac
    args+=("${a//@/$samples}")
  done
  "$hpcdb" "${args[@]}" > "$out/stdout" 2> "$out/stderr"
  got=$?
  [ "$got" = "$want" ] || { cat "$out/stderr"; fail "exit status $got, expected $want"; }
  ;;
*) fail "unknown case $case" ;;
esac
echo "1 passed, 0 failed"
