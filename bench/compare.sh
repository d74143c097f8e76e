#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# hpcdb compare against hpcdb report (issue 28's anchor): two generated v4.0
# databases of the same shape, B with 10 % of its contexts' values perturbed
# (gen_v4db --perturb 0.1); the wall time (best of 3), CPU time and peak
# memory of `hpcdb compare A B` against `hpcdb report A`, and the `cat` floor
# of the bytes each reads. Hatchet's `gf1 - gf2` is measured where Hatchet
# imports (it is not installed on this project's machines: said, not guessed).
# Usage: bench/compare.sh HPCDB GEN_V4DB WORK [PROFILESxCONTEXTSxMETRICS ...]
#   e.g. nice -n 10 bench/compare.sh build/hpcdb build/gen_v4db /tmp/cmp-bench 64x10000x4 256x100000x8
set -euo pipefail
hpcdb=${1:?usage: bench/compare.sh HPCDB GEN_V4DB WORK [PxCxM ...]} gen=${2:?} work=${3:?}
shift 3
sizes=("$@")
[ ${#sizes[@]} -gt 0 ] || sizes=(64x10000x4 256x100000x8)
mkdir -p "$work"

measure() { # "wall cpu rss_mb": best wall of 3 runs of "$@" (stdout discarded), that run's CPU and peak RSS
  local best=999999 cpu=0 rss=0 t s e
  t=$(mktemp)
  for _ in 1 2 3; do
    s=$(date +%s%N)
    /usr/bin/time -o "$t" -f "%U %S %M" "$@" > /dev/null
    e=$(date +%s%N)
    if [ $(( (e - s) / 1000000 )) -lt "$best" ]; then
      best=$(( (e - s) / 1000000 ))
      read -r u sy m < <(tail -n 1 "$t")
      cpu=$(awk -v u="$u" -v s="$sy" 'BEGIN { print u + s }')
      rss=$(( m / 1024 ))
    fi
  done
  rm -f "$t"
  awk -v ms="$best" -v cpu="$cpu" -v rss="$rss" 'BEGIN { printf "%.3f %.2f %d\n", ms / 1000, cpu, rss }'
}

printf "%-14s %-9s %8s %8s %7s %8s\n" size command "wall s" "CPU s" "RSS MB" "MB read"
for size in "${sizes[@]}"; do
  IFS=x read -r p c m <<<"$size"
  a=$work/$size-a.d b=$work/$size-b.d
  [ -d "$a" ] || "$gen" --profiles "$p" --contexts "$c" --metrics "$m" --seed 1 -o "$a"
  [ -d "$b" ] || "$gen" --profiles "$p" --contexts "$c" --metrics "$m" --seed 1 --perturb 0.1 -o "$b"
  mb_a=$(du -sm "$a" | cut -f1) mb_ab=$(du -smc "$a" "$b" | tail -1 | cut -f1)
  cat "$a"/*.db "$b"/*.db > /dev/null # both in the page cache, as after the first of 3 runs
  read -r w u r < <(measure cat "$a"/profile.db "$a"/meta.db)
  printf "%-14s %-9s %8s %8s %7s %8s\n" "$size" "cat A" "$w" "$u" "$r" "$mb_a"
  read -r w u r < <(measure cat "$a"/profile.db "$a"/meta.db "$b"/profile.db "$b"/meta.db)
  printf "%-14s %-9s %8s %8s %7s %8s\n" "$size" "cat A B" "$w" "$u" "$r" "$mb_ab"
  read -r rw ru rr < <(measure "$hpcdb" report "$a")
  printf "%-14s %-9s %8s %8s %7s %8s\n" "$size" "report A" "$rw" "$ru" "$rr" "$mb_a"
  read -r cw cu cr < <(measure "$hpcdb" compare "$a" "$b")
  printf "%-14s %-9s %8s %8s %7s %8s\n" "$size" "compare" "$cw" "$cu" "$cr" "$mb_ab"
  awk -v cw="$cw" -v rw="$rw" -v cr="$cr" -v rr="$rr" -v s="$size" \
    'BEGIN { printf "%-14s compare / report: wall %.2fx, memory %.2fx (targets: 2x, 2x)\n", s, cw / rw, cr / rr }'
  "$hpcdb" compare "$a" "$b" | sed -n 3,4p
done
if /usr/bin/python3 -c "import hatchet" 2>/dev/null; then
  echo "Hatchet importable: time gf1 - gf2 by hand (not scripted here)"
else
  echo "Hatchet: not installed and PyPI unreachable here: gf1 - gf2 not measured"
fi
