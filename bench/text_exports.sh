#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Text exports against the write floor: for each export of a generated
# database, the wall time (best of 3) and that run's CPU time (user + system),
# the output's size, the `dd` floor (writing as many bytes from /dev/zero to
# the same directory with conv=fsync, best of 3; and without the fsync, the
# page-cache copy alone: dd-nosync) and `hpcdb info` (reading the
# database into the model, which every export does first). Ratios: wall /
# floor, and CPU / floor (what the export costs where it does not wait for a
# core: on a shared machine the wall time is mostly waiting).
# Usage: bench/text_exports.sh HPCDB VALUES_DB TRACE_DB OUT_DIR
#   VALUES_DB e.g. gen_v4db --profiles 1024 --contexts 10000 --metrics 4 --density 1.0 (the largest)
#   TRACE_DB  e.g. gen_measurements --threads 64 --contexts 10000 --samples 10000, then analyze
set -euo pipefail
hpcdb=${1:?usage: bench/text_exports.sh HPCDB VALUES_DB TRACE_DB OUT_DIR}
values=${2:?} traces=${3:?} out=${4:?}
mkdir -p "$out"

best() { # "wall cpu": the best wall seconds of 3 runs of "$@" and that run's user + system seconds
  local b=999999 cpu=0 s e t
  t=$(mktemp)
  for _ in 1 2 3; do
    s=$(date +%s%N)
    /usr/bin/time -o "$t" -f "%U %S" "$@" > /dev/null 2>&1
    e=$(date +%s%N)
    if [ $(( (e - s) / 1000000 )) -lt "$b" ]; then
      b=$(( (e - s) / 1000000 ))
      cpu=$(tail -n 1 "$t" | awk '{ print $1 + $2 }')
    fi
  done
  rm -f "$t"
  awk -v ms="$b" -v cpu="$cpu" 'BEGIN { printf "%.3f %.2f", ms / 1000, cpu }'
}

floor() { # dd of $1 bytes into the output directory ($2: extra dd arguments)
  local mb=$(( ($1 + 1048575) / 1048576 ))
  best dd if=/dev/zero of="$out/floor.bin" bs=1M count="$mb" ${2:-} status=none
  rm -f "$out/floor.bin"
}

printf "%-16s %8s %8s %7s %7s %9s %7s %9s %9s\n" command "out MB" "wall s" "CPU s" "dd s" "dd-nosync" "info s" "wall/dd" "CPU/dd"
run() { # name db args...
  local name=$1 db=$2
  shift 2
  local file="$out/$name.out"
  "$hpcdb" "$@" "$db" -o "$file" 2>/dev/null || "$hpcdb" "$@" "$db" > "$file"
  local bytes t f g i
  bytes=$(stat -c %s "$file")
  if [ "$1" = dump ]; then t=$(best sh -c "'$hpcdb' $* '$db' > '$file'")
  else t=$(best "$hpcdb" "$@" "$db" -o "$file"); fi
  f=$(floor "$bytes" conv=fsync)
  g=$(floor "$bytes")
  i=$(best "$hpcdb" info "$db")
  awk -v n="$name" -v b="$bytes" -v t="$t" -v f="$f" -v g="$g" -v i="$i" 'BEGIN {
    split(t, tt, " "); split(f, ff, " "); split(g, gg, " "); split(i, ii, " ")
    if (ff[1] < 0.001) ff[1] = 0.001
    printf "%-16s %8.1f %8.3f %7.2f %7.3f %9.3f %7.3f %9.1f %9.1f\n", n, b / 1048576, tt[1], tt[2], ff[1], gg[1], ii[1],
           tt[1] / ff[1], tt[2] / ff[1] }'
  rm -f "$file"
}
# every export (hpcdb export --list); those that read the traces, of the traced database
while read -r name rest; do
  case $rest in *traces*) run "$name" "$traces" export --format "$name" ;; *) run "$name" "$values" export --format "$name" ;; esac
done < <("$hpcdb" export --list)
run dump-json "$values" dump --json
run csv-traces-db "$traces" export --format csv
