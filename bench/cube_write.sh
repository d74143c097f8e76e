#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# The Cube write (issue 11 point 11) with and without its fsyncs, beside the
# floor: `dd` of as many bytes, buffered, with conv=fsync and with O_DIRECT.
# Rounds alternate the cases, so that each round sees the same disk; the
# writer's own timing (bench_cube_write) leaves out reading the source.
# "without fsync" runs under eatmydata (Debian's package of that name), which
# makes fsync and fdatasync return at once: the data still reaches the disk
# (the writer uses O_DIRECT), only the flush of the disk's cache is skipped.
# Usage: bench/cube_write.sh BUILD_DIR SOURCE_DB OUT_DIR [ROUNDS]
#   SOURCE_DB e.g. gen_v4db --profiles 1024 --contexts 10000 --metrics 4 -o v4-1024
set -euo pipefail
build=${1:?usage: bench/cube_write.sh BUILD_DIR SOURCE_DB OUT_DIR [ROUNDS]}
src=${2:?} out=${3:?} rounds=${4:-3}
mkdir -p "$out"
cube=$out/bench.cubex

wall() { # CMD...: the write's wall and CPU seconds, as bench_cube_write prints them
  "$@" | sed -n 's/^write 1: \([0-9.]*\) s wall, \([0-9.]*\) s cpu.*/\1 \2/p'
}
dd_s() { # DD-FLAGS...: seconds dd takes to write the .cubex's bytes
  local s e
  rm -f "$out/dd.out"
  s=$(date +%s%N)
  dd if=/dev/zero of="$out/dd.out" bs=4M count="$blocks" "$@" status=none
  e=$(date +%s%N)
  rm -f "$out/dd.out"
  awk -v ns=$((e - s)) 'BEGIN { printf "%.3f", ns / 1e9 }'
}

"$build/bench_cube_write" "$src" "$cube" 1 > /dev/null # the output's size, and a warm page cache for the source
bytes=$(stat -c %s "$cube")
blocks=$(( (bytes + 4194303) / 4194304 ))
echo "machine: $(nproc) cores, $(uname -sr); load average $(cut -d' ' -f1-3 /proc/loadavg)"
echo "output: $bytes bytes; wall s (cpu s)"
echo "| round | write with fsync | write without fsync | dd buffered | dd conv=fsync | dd oflag=direct |"
echo "|---|---|---|---|---|---|"
for r in $(seq "$rounds"); do
  read -r w1 c1 < <(wall "$build/bench_cube_write" "$src" "$cube" 1)
  if command -v eatmydata > /dev/null; then
    read -r w2 c2 < <(wall eatmydata "$build/bench_cube_write" "$src" "$cube" 1)
    nosync="$w2 ($c2)"
  else
    nosync="(eatmydata not installed)"
  fi
  echo "| $r | $w1 ($c1) | $nosync | $(dd_s) | $(dd_s conv=fsync) | $(dd_s oflag=direct) |"
done
rm -f "$cube"
