#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# The ABI changes only with the version (docs/api-stability.md): abidiff of the
# built library against abi/libhpcdb.abi, the ABI of the last release. Any
# change, additions included, while the soname is still the release's fails.
# usage: check_abi.sh LIBHPCDB.so SOURCE_DIR OUTDIR
set -u
lib=$(readlink -f "$1") src=$2 out=$3
command -v abidiff >/dev/null || { echo "skipped: abidiff is not installed (abigail-tools, scripts/deps.sh)"; exit 77; }
mkdir -p "$out"
base=$src/abi/libhpcdb.abi
abidw --no-corpus-path --no-comp-dir-path --headers-dir "$src/include/hpcdb" --out-file "$out/current.abi" "$lib" ||
  { echo "abidw failed on $lib"; exit 1; }
abidiff "$base" "$out/current.abi" >"$out/abidiff.txt" 2>&1
rc=$?
soname() { grep -o "soname='[^']*'" "$1" | head -1 | cut -d"'" -f2; }
was=$(soname "$base") now=$(soname "$out/current.abi")
[ $((rc & 1)) -eq 0 ] || { cat "$out/abidiff.txt"; echo "abidiff could not compare"; exit 1; }
if [ "$rc" -eq 0 ]; then
  echo "ABI unchanged since $was"
  exit 0
fi
kind="compatible"
[ $((rc & 8)) -ne 0 ] && kind="INCOMPATIBLE"
if [ "$was" = "$now" ]; then
  cat "$out/abidiff.txt"
  echo "the ABI changed ($kind) but the soname is still $now: bump HPCDB_VERSION_MINOR in include/hpcdb/common.h" \
       "and say so in CHANGELOG.md (scripts/abi_dump.sh makes the new baseline at the release)"
  exit 1
fi
echo "the ABI changed ($kind) from $was to $now, and the version with it"
exit 0
