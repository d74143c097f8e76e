#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# `cmake --install` into a scratch prefix puts the package where the
# configured directory says (Debian's python3 looks in PREFIX/lib/python3.X/
# dist-packages for /usr/local); the installed module imports without the
# build tree and reads a sample database.
# usage: check_install.sh PYTHON BUILD_DIR OUTDIR PACKAGE_DIR_UNDER_PREFIX SAMPLE_DB
set -eu
python=$1 build=$2 out=$3 sub=$4 db=$5
[ -e "$db" ] || { echo "skip: $db is absent"; exit 77; }
rm -rf "$out"
cmake --install "$build" --prefix "$out" >"$out.log" 2>&1 || { cat "$out.log"; exit 1; }
unset PYTHONPATH
cd "$out"
PYTHONPATH="$out/$sub" "$python" - "$db" "$out/$sub" <<'PY'
import os, sys
import hpcdb
assert hpcdb.__file__.startswith(sys.argv[2]), hpcdb.__file__
exp = hpcdb.open(sys.argv[1])
print("installed %s: %r" % (os.path.dirname(hpcdb.__file__), exp))
PY
