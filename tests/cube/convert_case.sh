#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Conversions of a Cube file or a v4.0 database, each checked with hpcdb diff.
#   convert_case.sh HPCDB cube X.cubex OUT
#     X reads and validates; rewritten as Cube (plain and compressed) it reads
#     back to the same values, twice byte-identical; converted to v4.0 it
#     validates and diffs equal; that database back to Cube diffs equal too.
#   convert_case.sh HPCDB v4 DB OUT
#     DB to Cube: the same calling paths, profiles and inclusive values
#     (diff --scope execution); that Cube file to v4.0 validates.
set -u
hpcdb=$1 kind=$2 src=$3 out=$4
[ -e "$src" ] || { echo "sample data not found ($src): skipped"; exit 77; }
rm -rf "$out" && mkdir -p "$out"
fail() { echo "FAIL: $*"; exit 1; }
same() { "$hpcdb" diff "$@" > "$out/diff.txt" 2>&1 || { head -20 "$out/diff.txt"; fail "differ: $*"; }; }
case $kind in
cube)
  "$hpcdb" info "$src" > "$out/info.txt" || fail "info"
  "$hpcdb" validate "$src" > "$out/validate.txt" || { cat "$out/validate.txt"; fail "validate"; }
  "$hpcdb" convert --quiet --to cube "$src" "$out/one.cubex" || fail "convert --to cube"
  "$hpcdb" validate "$out/one.cubex" > "$out/validate1.txt" || { cat "$out/validate1.txt"; fail "the rewritten file is invalid"; }
  same "$src" "$out/one.cubex"
  "$hpcdb" convert --quiet --to cube "$out/one.cubex" "$out/two.cubex" || fail "second convert --to cube"
  cmp "$out/one.cubex" "$out/two.cubex" || fail "rewriting twice is not byte-identical"
  "$hpcdb" convert --quiet --to cube --compress "$src" "$out/z.cubex" || fail "convert --to cube --compress"
  same "$src" "$out/z.cubex"
  "$hpcdb" convert --quiet "$src" "$out/db" || fail "convert to v4.0"
  "$hpcdb" validate --errors-only "$out/db" || fail "the converted database is invalid"
  same "$src" "$out/db"
  "$hpcdb" convert --quiet --to cube "$out/db" "$out/back.cubex" || fail "v4.0 back to cube"
  same "$src" "$out/back.cubex"
  ;;
v4)
  "$hpcdb" convert --quiet --to cube "$src" "$out/db.cubex" || fail "convert --to cube"
  "$hpcdb" validate "$out/db.cubex" > "$out/validate.txt" || { cat "$out/validate.txt"; fail "the Cube file is invalid"; }
  same --scope execution "$src" "$out/db.cubex"
  "$hpcdb" convert --quiet "$out/db.cubex" "$out/again" || fail "Cube back to v4.0"
  "$hpcdb" validate --errors-only "$out/again" || fail "the database made from the Cube file is invalid"
  same --scope execution "$src" "$out/again"
  ;;
*) fail "unknown kind $kind" ;;
esac
echo "1 passed, 0 failed"
