#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Benchmarks `hpcdb analyze` with program structure against the same analyze
# without it (--ignore-structs), on the synthetic measurements of
# bench/analyze.sh (gen_measurements) with a structure file that describes
# all of their code (gen_struct: every frame gets a function, loops, an
# inlined call or not, and a line; the instruction stays a hidden context).
# All in one run: wall and CPU time (user + sys) of the best of three runs,
# peak RSS, contexts and database size.
# Usage: bench/analyze_struct.sh BUILD_DIR [WORK_DIR] [SIZES...]   (a size is THREADSxCONTEXTS)
set -euo pipefail
build=${1:?usage: bench/analyze_struct.sh BUILD_DIR [WORK_DIR] [SIZES...]}
work=${2:-$build/bench-work}
shift $(( $# >= 2 ? 2 : 1 ))
sizes=("$@")
[ ${#sizes[@]} -gt 0 ] || sizes=(16x10000 64x10000 64x100000)
mkdir -p "$work"

measure() { # "wall_seconds cpu_seconds peak_kib" of the best of three runs (cpu = user + sys)
  local t best=999999 cpu=0 kb=0 s e w
  t=$(mktemp)
  for _ in 1 2 3; do
    s=$(date +%s%N)
    /usr/bin/time -o "$t" -f "%U %S %M" "$@" >/dev/null 2>&1 || true
    e=$(date +%s%N)
    w=$(( (e - s) / 1000000 ))
    if [ "$w" -lt "$best" ]; then
      best=$w
      read -r u sy kb < <(tail -n 1 "$t")
      cpu=$(awk -v u="$u" -v s="$sy" 'BEGIN { printf "%.2f", u + s }')
    fi
  done
  rm -f "$t"
  awk -v ms="$best" -v cpu="$cpu" -v kb="$kb" 'BEGIN { printf "%.3f %s %s\n", ms / 1000, cpu, kb }'
}

echo "machine: $(nproc) cores, $(awk '/MemTotal/ {printf "%.0f GiB", $2/1048576}' /proc/meminfo), $(uname -sr)"
echo "command: bench/analyze_struct.sh $build $work ${sizes[*]}"
echo
echo '| threads × contexts | structure file MB | -j | without: wall s / CPU s | with: wall s / CPU s | with / without (wall, CPU) | RSS without / with MB | contexts without / with | database without / with MB | CPU with / without per database MB |'
echo '|---|---|---|---|---|---|---|---|---|---|'
for size in "${sizes[@]}"; do
  IFS=x read -r T C <<<"$size"
  meas=$work/meas-struct-$size
  if [ ! -d "$meas" ]; then
    "$build/gen_measurements" --threads "$T" --contexts "$C" --metrics 4 --depth 16 --samples 1000 -o "$meas"
    mkdir -p "$meas/structs"
    "$build/gen_struct" --threads "$T" -o "$meas/structs/synthetic.hpcstruct"
  fi
  smb=$(awk -v b="$(wc -c < "$meas/structs/synthetic.hpcstruct")" 'BEGIN { printf "%.0f", b / 1048576 }')
  for j in 1 2; do
    read -r s0 c0 k0 < <(measure "$build/hpcdb" analyze --quiet --force --ignore-structs -j "$j" "$meas" -o "$work/db-ns-$size")
    read -r s1 c1 k1 < <(measure "$build/hpcdb" analyze --quiet --force -j "$j" "$meas" -o "$work/db-s-$size")
    n0=$("$build/hpcdb" info "$work/db-ns-$size" | awk '/^contexts:/ {print $2}')
    n1=$("$build/hpcdb" info "$work/db-s-$size" | awk '/^contexts:/ {print $2}')
    m0=$(du -sm "$work/db-ns-$size" | cut -f1)
    m1=$(du -sm "$work/db-s-$size" | cut -f1)
    printf '| %s | %s | %s | %s / %s | %s / %s | %.2f, %.2f | %.0f / %.0f | %s / %s | %s / %s | %.2f |\n' "$T × $C" "$smb" "$j" \
      "$s0" "$c0" "$s1" "$c1" "$(awk -v a="$s1" -v b="$s0" 'BEGIN { print a / b }')" \
      "$(awk -v a="$c1" -v b="$c0" 'BEGIN { print (b > 0 ? a / b : 0) }')" \
      "$(awk -v k="$k0" 'BEGIN { print k / 1024 }')" "$(awk -v k="$k1" 'BEGIN { print k / 1024 }')" "$n0" "$n1" "$m0" "$m1" \
      "$(awk -v a="$c1" -v b="$c0" -v x="$m1" -v y="$m0" 'BEGIN { print ((b > 0 && x > 0) ? (a / x) / (b / y) : 0) }')"
  done
done
