#!/usr/bin/env bash
# Text exports against the write floor: for each export of a generated
# database, the wall time (best of 3), the output's size, the `dd` floor
# (writing as many bytes from /dev/zero to the same directory, best of 3) and
# `hpcdb info` (reading the database into the model, which every export does
# first). Ratios: export / floor, and (export - info) / floor, the formatting
# and writing alone.
# Usage: bench/text_exports.sh HPCDB VALUES_DB TRACE_DB OUT_DIR
#   VALUES_DB e.g. gen_v4db --profiles 256 --contexts 10000 --metrics 4 --density 1.0
#   TRACE_DB  e.g. gen_measurements --threads 64 --contexts 10000 --samples 10000, then analyze
set -euo pipefail
hpcdb=${1:?usage: bench/text_exports.sh HPCDB VALUES_DB TRACE_DB OUT_DIR}
values=${2:?} traces=${3:?} out=${4:?}
mkdir -p "$out"

best() { # best wall seconds of 3 runs of "$@" (stdout to the output file given by $OUTFILE)
  local b=999999 s e
  for _ in 1 2 3; do
    s=$(date +%s%N)
    "$@" > /dev/null 2>&1
    e=$(date +%s%N)
    b=$(( (e - s) / 1000000 < b ? (e - s) / 1000000 : b ))
  done
  awk -v ms="$b" 'BEGIN { printf "%.3f", ms / 1000 }'
}

floor() { # dd of $1 bytes into the output directory
  local mb=$(( ($1 + 1048575) / 1048576 ))
  best dd if=/dev/zero of="$out/floor.bin" bs=1M count="$mb" conv=fsync status=none
  rm -f "$out/floor.bin"
}

printf "%-28s %10s %9s %9s %9s %8s %8s\n" command "out MB" "wall s" "dd s" "info s" "x dd" "x dd-fmt"
run() { # name db args...
  local name=$1 db=$2
  shift 2
  local file="$out/$name.out"
  "$hpcdb" "$@" "$db" -o "$file" 2>/dev/null || "$hpcdb" "$@" "$db" > "$file"
  local bytes t f i
  bytes=$(stat -c %s "$file")
  if [ "$1" = dump ]; then t=$(best sh -c "'$hpcdb' $* '$db' > '$file'")
  else t=$(best "$hpcdb" "$@" "$db" -o "$file"); fi
  f=$(floor "$bytes")
  i=$(best "$hpcdb" info "$db")
  awk -v n="$name" -v b="$bytes" -v t="$t" -v f="$f" -v i="$i" 'BEGIN {
    if (f < 0.001) f = 0.001
    printf "%-28s %10.1f %9.3f %9.3f %9.3f %8.1f %8.1f\n", n, b / 1048576, t, f, i, t / f, (t - i) / f }'
  rm -f "$file"
}
run csv "$values" export --format csv
run dump-json "$values" dump --json
run folded "$values" export --format folded
run chrome-trace "$traces" export --format chrome-trace
run csv-traces-db "$traces" export --format csv
