#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# `hpcdb report ARGS... SOURCE_DB` must print exactly the expected file.
# usage: report_case.sh HPCDB SOURCE_DB EXPECTED OUTPUT_DIR ARGS...
set -u
hpcdb=$1 src=$2 expected=$3 out=$4
shift 4
[ -e "$src" ] || { echo "skip: $src is absent"; exit 77; }
rm -rf "$out" && mkdir -p "$out" || exit 1
"$hpcdb" report "$@" "$src" > "$out/actual" || { echo "FAIL: report $src"; exit 1; }
diff -u "$expected" "$out/actual" || { echo "FAIL: report $src differs from $expected"; exit 1; }
echo "ok: $src"
