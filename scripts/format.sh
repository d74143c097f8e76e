#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# The C sources in the style of .clang-format (Debian's clang-format 14).
# Usage: scripts/format.sh          reformat every tracked .c and .h file
#        scripts/format.sh --check  list the files that differ; status 1 if any
set -eu
cd "$(dirname "$0")/.."
command -v clang-format > /dev/null || { echo "skipped: clang-format is not installed (scripts/deps.sh installs it)"; exit 77; }
# The programs under tests/ that are measured or analysed (tests/record, binstruct, realapps, ...) are
# left as written: their expected outputs name their lines.
dirs="src include python/src fuzz tests/unit tests/support tests/view"
# Generated files (scripts/gen_*.py) are left as their generator writes them.
files=$(git ls-files -- $dirs | grep '\.[ch]$' | grep -v 'dtoa_tables\.h$')
if [ "${1:-}" = --check ]; then
  bad=0
  for f in $files; do
    clang-format --style=file "$f" | cmp -s - "$f" || { echo "not formatted: $f (scripts/format.sh formats it)"; bad=1; }
  done
  [ $bad = 0 ] && echo "every C file is formatted as .clang-format says"
  exit $bad
fi
echo "$files" | xargs clang-format --style=file -i
