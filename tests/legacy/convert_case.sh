#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# One older database: info, validate (exit 0), convert to v4.0, validate the copy,
# diff source and copy (no difference), and a second conversion byte-identical.
# usage: convert_case.sh HPCDB SOURCE_DB OUTPUT_DIR
set -u
hpcdb=$1 src=$2 out=$3
[ -e "$src" ] || { echo "skip: $src is absent"; exit 77; }
rm -rf "$out" && mkdir -p "$out" || exit 1
fail() { echo "FAIL: $*"; exit 1; }
"$hpcdb" info "$src" > "$out/info.txt" || fail "info $src"
"$hpcdb" validate "$src" || fail "validate $src"
"$hpcdb" convert "$src" "$out/v4" || fail "convert $src"
"$hpcdb" validate "$out/v4" || fail "validate the converted copy"
"$hpcdb" diff "$src" "$out/v4" > "$out/diff.txt" || { head -20 "$out/diff.txt"; fail "diff $src $out/v4"; }
"$hpcdb" convert "$out/v4" "$out/v4-again" || fail "convert the copy"
for f in meta.db profile.db cct.db trace.db; do
  [ -e "$out/v4/$f" ] || [ ! -e "$out/v4-again/$f" ] || fail "$f appeared in the second conversion"
  [ -e "$out/v4/$f" ] || continue
  cmp "$out/v4/$f" "$out/v4-again/$f" || fail "$f differs after a second conversion"
done
echo "ok: $src"
