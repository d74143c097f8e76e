#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# `pip install --no-build-isolation .` from the source tree into a fresh
# `venv --system-site-packages` (numpy, pandas and setuptools from Debian), the README's
# command: setup.py drives the project's CMake from a copy of the source tree, then the
# installed module reads a sample database. Skips (77) without venv/ensurepip.
# usage: check_pip_install.sh PYTHON SOURCE_DIR OUTDIR SAMPLE_DB
set -eu
python=$1 src=$2 out=$3 db=$4
[ -e "$db" ] || { echo "skip: $db is absent"; exit 77; }
rm -rf "$out"
mkdir -p "$out"
# With Debian's python3-pip the venv sees pip through its system site-packages (no ensurepip copy
# to unpack, the slow part); without it the venv gets its own pip from ensurepip.
without_pip=
"$python" -m pip --version >/dev/null 2>&1 && without_pip=--without-pip
if ! "$python" -m venv --system-site-packages $without_pip "$out/venv" >"$out/venv.log" 2>&1; then
  cat "$out/venv.log"
  echo "skip: '$python -m venv' does not work here (python3-venv / ensurepip missing; its output above)"
  exit 77
fi
# pip builds in a copy of what git tracks, so the source tree's build directories are left alone
mkdir -p "$out/src-copy"
(cd "$src" && git ls-files -z 2>/dev/null || find . -path ./build -prune -o -type f -print0) |
  (cd "$src" && xargs -0 cp --parents -t "$out/src-copy")
# the sanitizer run preloads its runtimes; the package's own CMake build is a plain one
unset LD_PRELOAD
"$out/venv/bin/python" -m pip install --no-build-isolation --no-index --no-deps -q "$out/src-copy" \
  >"$out/pip.log" 2>&1 || { cat "$out/pip.log"; exit 1; }
cd "$out"
unset PYTHONPATH
"$out/venv/bin/python" - "$db" <<'PY'
import sys
import hpcdb
where = hpcdb.__file__
assert "/venv/" in where, where
exp = hpcdb.open(sys.argv[1])
v = exp.values()
assert len(v) > 0 and len(exp.contexts) > 1
print("pip-installed hpcdb from %s: %d rows" % (where, len(v)))
PY
