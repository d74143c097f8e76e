#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Benchmarks `hpcdb analyze` on synthetic measurement directories (bench/
# gen_measurements: 4 metrics, depth 16, 1,000 trace samples per thread, 80%
# of each thread's calling paths shared, a value for a quarter of the (frame,
# metric) pairs), all in one run: for each size, the
# `cat` floor of the input, the time `dd` takes to write as many bytes as the
# database has, and analyze with -j 1 and -j 2 (wall time, input MB/s, peak
# RSS, output size).
# Usage: bench/analyze.sh BUILD_DIR [WORK_DIR] [SIZES...]   (a size is THREADSxCONTEXTS)
# SHARED=F sets the fraction of each thread's calling paths all threads share (default 0.8),
# DENSITY=P the probability that a frame has a value of a metric (default 0.25).
set -euo pipefail
build=${1:?usage: bench/analyze.sh BUILD_DIR [WORK_DIR] [SIZES...]}
work=${2:-$build/bench-work}
shift $(( $# >= 2 ? 2 : 1 ))
sizes=("$@")
[ ${#sizes[@]} -gt 0 ] || sizes=(16x10000 64x10000 256x10000 64x100000 1024x10000)
mkdir -p "$work"

# Runs a command; prints "seconds peak_kib" (wall time to the millisecond,
# the best of three runs; peak RSS from GNU time).
measure() {
  local t best=999999 kb=0 s e w
  t=$(mktemp)
  for _ in 1 2 3; do
    s=$(date +%s%N)
    /usr/bin/time -o "$t" -f "%M" "$@" >/dev/null 2>&1 || true
    e=$(date +%s%N)
    w=$(( (e - s) / 1000000 ))
    [ "$w" -lt "$best" ] && best=$w
    kb=$(tail -n 1 "$t")
  done
  rm -f "$t"
  awk -v ms="$best" -v kb="$kb" 'BEGIN { printf "%.3f %s\n", ms / 1000, kb }'
}
mbs() { awk -v b="$1" -v s="$2" 'BEGIN { if (s <= 0) s = 0.005; printf "%.0f", b / 1048576 / s }'; }
mb() { awk -v b="$1" 'BEGIN { printf "%.0f", b / 1048576 }'; }

echo "machine: $(nproc) cores, $(awk '/MemTotal/ {printf "%.0f GiB", $2/1048576}' /proc/meminfo), $(uname -sr)"
echo "command: SHARED=${SHARED:-0.8} DENSITY=${DENSITY:-0.25} bench/analyze.sh $build $work ${sizes[*]}"
echo
echo '| threads × contexts | input MB | cat s | -j | wall s | input MB/s | peak RSS MB | output MB | dd of output s | wall / dd |'
echo '|---|---|---|---|---|---|---|---|---|---|'
for size in "${sizes[@]}"; do
  IFS=x read -r T C <<<"$size"
  shared=${SHARED:-0.8} density=${DENSITY:-0.25}
  meas=$work/meas-$size-s$shared-d$density
  [ -d "$meas" ] || "$build/gen_measurements" --threads "$T" --contexts "$C" --metrics 4 --depth 16 \
    --samples 1000 --shared "$shared" --density "$density" -o "$meas"
  bytes=$(cat "$meas"/* | wc -c)
  cat "$meas"/* >/dev/null
  read -r cat_s _ < <(measure sh -c "cat '$meas'/* > /dev/null")
  for j in 1 2; do
    out=$work/db-$size-j$j
    read -r s kb < <(measure "$build/hpcdb" analyze --quiet --force -j "$j" "$meas" -o "$out")
    obytes=$(cat "$out"/*.db | wc -c)
    read -r dd_s _ < <(measure dd if=/dev/zero of="$work/dd.out" bs=1M count=$(( obytes / 1048576 + 1 )) conv=fsync)
    rm -f "$work/dd.out"
    printf '| %s | %s | %s | %s | %s | %s | %.0f | %s | %s | %s |\n' "$T × $C" "$(mb "$bytes")" "$cat_s" "$j" "$s" \
      "$(mbs "$bytes" "$s")" "$(awk -v k="$kb" 'BEGIN { print k / 1024 }')" "$(mb "$obytes")" "$dd_s" \
      "$(awk -v a="$s" -v b="$dd_s" 'BEGIN { if (b <= 0) b = 0.005; printf "%.1f", a / b }')"
    rm -rf "$out"
  done
done
