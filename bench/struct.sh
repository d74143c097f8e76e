#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Benchmarks `hpcdb struct` against the floor of what it decodes, side by side
# in one run: reading the binary's DWARF once (eu-readelf of its compile units
# and decoded line tables) plus disassembling it once (objdump -d). For each
# binary: the floor's parts, then hpcdb struct at -j 1 and -j 2 (wall time,
# best of RUNS; peak RSS), output size and the ratio to the floor.
# Default binaries: the largest .so under /usr/lib (without DWARF) and the
# largest .so under /usr/lib holding DWARF itself.
# Usage: bench/struct.sh BUILD_DIR [BINARY...]   (RUNS=N, default 3)
set -euo pipefail
build=${1:?usage: bench/struct.sh BUILD_DIR [BINARY...]}
shift
bins=("$@")
for tool in eu-readelf objdump; do
  command -v "$tool" >/dev/null || { echo "bench/struct.sh: $tool missing (scripts/deps.sh installs it)" >&2; exit 1; }
done
if [ ${#bins[@]} -eq 0 ]; then
  sos=$(find /usr/lib -name '*.so*' -type f -size +1M -printf '%s %p\n' 2>/dev/null | sort -rn | cut -d' ' -f2-)
  largest=$(head -n 1 <<<"$sos")
  with_dwarf=""
  while read -r f; do
    if readelf -S "$f" 2>/dev/null | grep '\.debug_info' >/dev/null; then with_dwarf=$f; break; fi
  done <<<"$sos"
  bins=("$largest")
  [ -n "$with_dwarf" ] && bins+=("$with_dwarf")
fi
runs=${RUNS:-3}
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

# Runs a command; prints "seconds peak_kib cpu_seconds" (best wall time of $runs,
# its peak RSS and user + system CPU time: on a shared machine CPU time is the
# steadier measure).
# ALLOW_FAIL=1: the command's status does not matter (eu-readelf exits 1 on a
# binary without DWARF, after looking for it).
measure() {
  local t best=999999999 kb=0 cpu=0 s e w k c
  t=$(mktemp)
  for _ in $(seq "$runs"); do
    s=$(date +%s%N)
    /usr/bin/time -o "$t" -f "%M %U %S" "$@" >/dev/null 2>&1 || [ "${ALLOW_FAIL:-0}" = 1 ] ||
      { echo "failed: $*" >&2; exit 1; }
    e=$(date +%s%N)
    w=$(( (e - s) / 1000000 ))
    read -r k c < <(tail -n 1 "$t" | awk '{ print $1, $2 + $3 }')
    if [ "$w" -lt "$best" ]; then best=$w; kb=$k; cpu=$c; fi
  done
  rm -f "$t"
  awk -v ms="$best" -v kb="$kb" -v cpu="$cpu" 'BEGIN { printf "%.2f %s %.2f\n", ms / 1000, kb, cpu }'
}
mb() { awk -v k="$1" 'BEGIN { printf "%.0f", k / 1024 }'; }

echo "machine: $(nproc) cores, $(awk '/MemTotal/ {printf "%.0f GiB", $2/1048576}' /proc/meminfo), $(uname -sr); load $(cut -d' ' -f1-3 /proc/loadavg)"
echo "command: RUNS=$runs bench/struct.sh $build ${bins[*]}"
echo
echo '| binary | MB | DWARF | eu-readelf s (CPU) | objdump -d s (CPU) | floor s (CPU) | -j | struct s (CPU) | peak RSS MB | output MB | wall / floor | CPU / floor |'
echo '|---|---|---|---|---|---|---|---|---|---|---|---|'
for bin in "${bins[@]}"; do
  size=$(stat -L -c %s "$bin")
  dwarf=no
  readelf -S "$bin" 2>/dev/null | grep '\.debug_info' >/dev/null && dwarf=yes
  read -r rs _ rc < <(ALLOW_FAIL=1 measure eu-readelf -N --debug-dump=info --debug-dump=decodedline "$bin")
  read -r os _ oc < <(measure objdump -d "$bin")
  floor=$(awk -v a="$rs" -v b="$os" 'BEGIN { printf "%.2f", a + b }')
  floorc=$(awk -v a="$rc" -v b="$oc" 'BEGIN { printf "%.2f", a + b }')
  for j in 1 2; do
    read -r ss kb sc < <(measure "$build/hpcdb" struct --no-cache -j "$j" "$bin" -o "$out/s.hpcstruct")
    osz=$(stat -c %s "$out/s.hpcstruct")
    echo "| $(basename "$bin") | $(mb $((size / 1024))) | $dwarf | $rs ($rc) | $os ($oc) | $floor ($floorc) | $j | $ss ($sc) | $(mb "$kb") | $(mb $((osz / 1024))) | $(awk -v a="$ss" -v b="$floor" 'BEGIN { printf "%.2f", a / b }') | $(awk -v a="$sc" -v b="$floorc" 'BEGIN { if (b > 0) printf "%.2f", a / b; else printf "-" }') |"
  done
done
