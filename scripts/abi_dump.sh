#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Writes abi/libhpcdb.abi, the ABI of the public headers' types and functions
# as built in BUILD (a RelWithDebInfo build: abidw reads the DWARF). Run it when
# a release is made, after bumping HPCDB_VERSION_MINOR (docs/api-stability.md);
# tests/api/check_abi.sh then compares every build against it.
# usage: scripts/abi_dump.sh [BUILD]
set -eu
here=$(cd "$(dirname "$0")/.." && pwd)
lib=$(readlink -f "${1:-$here/build}/libhpcdb.so")
abidw --no-corpus-path --no-comp-dir-path --headers-dir "$here/include/hpcdb" --out-file "$here/abi/libhpcdb.abi" "$lib"
echo "abi/libhpcdb.abi: $(grep -o "soname='[^']*'" "$here/abi/libhpcdb.abi" | head -1)"
