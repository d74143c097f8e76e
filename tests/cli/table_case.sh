#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# One row of a CLI table (options.table): table_case.sh HPCDB SAMPLES OUT TABLE NAME
# Runs the row's arguments and compares the exit status and the whole stderr, exactly.
# The row's folder % is made fresh, holding: old (a plain file: an existing output, a program
# without execute permission), trunc.so (the first 3000 bytes of a sample's ELF file) and
# m/ (a copy of hpcrun/small.m with one truncated .hpcrun file beside the good one).
set -u
hpcdb=$1 samples=$2 out=$3 table=$4 name=$5
row=$(grep -E "^$name \|" "$table") || { echo "FAIL: no row $name in $table"; exit 1; }
IFS='|' read -r _ want args expected <<< "$row"
want=$(echo "$want" | xargs) args=$(echo "$args" | xargs) expected=$(echo "$expected" | sed 's/^ //')
# {exports}: the export names as the parser lists its choices (hpcdb export --list: the registry's order)
exports=$("$hpcdb" export --list | awk '{ printf "%s%s", (NR > 1 ? "," : ""), $1 }')
expected=${expected//\{exports\}/$exports}
case "$args $expected" in # the samples, or the fixtures made from them
*@* | *trunc.so* | *%/m*) [ -d "$samples" ] || { echo "sample data not found at $samples: skipped"; exit 77; } ;;
esac
rm -rf "$out" && mkdir -p "$out"
echo old > "$out/old"
if [ -d "$samples" ]; then
  head -c 3000 "$samples"/hpcrun/small.m/vdso/*.vdso > "$out/trunc.so"
  cp -r "$samples/hpcrun/small.m" "$out/m" && chmod -R u+w "$out/m"
  good=$(ls "$out"/m/*.hpcrun | head -1)
  head -c 100 "$good" > "$out/m/broken.hpcrun"
fi
read -r -a argv <<< "$args"
for i in "${!argv[@]}"; do # % alone or before a / is the folder ("5%" stays a percentage)
  a=${argv[$i]//@/$samples}
  [ "$a" = % ] && a=$out
  argv[$i]=${a//%\//$out/}
done
(cd "$out" && "$hpcdb" "${argv[@]}" > "$out/.stdout" 2> "$out/.stderr")
got=$?
actual=$(sed "s|$out|%|g; s|$samples|@|g" "$out/.stderr")
status=0
[ "$got" = "$want" ] || { echo "FAIL: $name: exit status $got, expected $want"; status=1; }
case $expected in *" ...") actual=$(echo "$actual" | head -1)" ..." ;; esac
[ "$actual" = "$expected" ] || { printf 'FAIL: %s: stderr\n  got:      %s\n  expected: %s\n' "$name" "$actual" "$expected"; status=1; }
[ $status = 0 ] && echo "1 passed, 0 failed"
exit $status
