#!/usr/bin/env bash
# A .cubex reads, converts to a v4.0 database that validates, and the
# database compares equal to the Cube file (hpcdb diff across formats).
set -u
hpcdb=$1 cube=$2 out=$3
[ -f "$cube" ] || { echo "sample data not found ($cube): skipped"; exit 77; }
rm -rf "$out" && mkdir -p "$out"
fail() { echo "FAIL: $*"; exit 1; }
"$hpcdb" info "$cube" > "$out/info.txt" || fail "info"
"$hpcdb" convert --quiet "$cube" "$out/db" || fail "convert"
"$hpcdb" validate --errors-only "$out/db" || fail "the converted database is invalid"
"$hpcdb" diff "$cube" "$out/db" || fail "the converted database differs"
echo "1 passed, 0 failed"
