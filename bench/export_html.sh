#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# export --format html on generated v4.0 databases: the export's time, the
# page's size and the exporter's peak RSS, against `cat` of the database's
# files and `hpcdb report --csv` of the same metric. Many metrics (44, as
# GAMESS's database has) take the export through every column's values: it
# must stay linear in the data it writes.
# Usage: bench/export_html.sh BUILD_DIR [PxCxM | DB ...]   (default 64x10000x8 64x100000x4 64x1000x44)
set -eu
build=$(cd "$1" && pwd)
shift
[ $# -gt 0 ] || set -- 64x10000x8 64x100000x4 64x1000x44
data=$build/bench-data
mkdir -p "$data"
now() { date +%s.%N; }
for shape in "$@"; do
  if [ -d "$shape" ]; then # a real database, e.g. hpctoolkit-v4/hpcviewer-issue-328 (44 metrics)
    db=$(cd "$shape" && pwd) shape=$(basename "$db")
  else
    P=${shape%%x*} rest=${shape#*x}
    C=${rest%%x*} M=${rest#*x}
    db=$data/v4-${P}x${C}x${M}
    [ -e "$db" ] || "$build/gen_v4db" --profiles "$P" --contexts "$C" --metrics "$M" -o "$db" > /dev/null
  fi
  t0=$(now); cat "$db"/*.db > /dev/null; t1=$(now)
  echo "== $shape: floor, cat of the .db files: $(echo "$t1 - $t0" | bc) s"
  metric=$("$build/hpcdb" info "$db" | awk '/^metrics:/{getline; sub(/^ +/, ""); print; exit}')
  t0=$(now); "$build/hpcdb" report --csv --metric "$metric" "$db" > /dev/null; t1=$(now)
  echo "hpcdb report --csv: $(echo "$t1 - $t0" | bc) s"
  out=$data/export-$shape.html
  /usr/bin/time -f "hpcdb export --format html: %e s wall, %U+%S s CPU, %M KB peak RSS" \
    "$build/hpcdb" export --format html --force "$db" -o "$out" 2>&1 >/dev/null | grep -v '^hpcdb export: metric'
  echo "page: $(stat -c %s "$out") bytes"
done
