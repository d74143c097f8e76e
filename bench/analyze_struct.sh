#!/usr/bin/env bash
# Benchmarks `hpcdb analyze` with program structure against the same analyze
# without it (--ignore-structs), on the synthetic measurements of
# bench/analyze.sh (gen_measurements) with a structure file that describes
# all of their code (gen_struct: every frame gets a function, loops, an
# inlined call or not, and a line; the instruction stays a hidden context).
# All in one run: wall time (best of three), peak RSS, contexts.
# Usage: bench/analyze_struct.sh BUILD_DIR [WORK_DIR] [SIZES...]   (a size is THREADSxCONTEXTS)
set -euo pipefail
build=${1:?usage: bench/analyze_struct.sh BUILD_DIR [WORK_DIR] [SIZES...]}
work=${2:-$build/bench-work}
shift $(( $# >= 2 ? 2 : 1 ))
sizes=("$@")
[ ${#sizes[@]} -gt 0 ] || sizes=(16x10000 64x10000 64x100000)
mkdir -p "$work"

measure() { # "seconds peak_kib" of the best of three runs
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

echo "machine: $(nproc) cores, $(awk '/MemTotal/ {printf "%.0f GiB", $2/1048576}' /proc/meminfo), $(uname -sr)"
echo "command: bench/analyze_struct.sh $build $work ${sizes[*]}"
echo
echo '| threads × contexts | structure file MB | -j | without s | with s | with / without | RSS without MB | RSS with MB | contexts without | contexts with |'
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
    read -r s0 k0 < <(measure "$build/hpcdb" analyze --quiet --force --ignore-structs -j "$j" "$meas" -o "$work/db-ns-$size")
    read -r s1 k1 < <(measure "$build/hpcdb" analyze --quiet --force -j "$j" "$meas" -o "$work/db-s-$size")
    c0=$("$build/hpcdb" info "$work/db-ns-$size" | awk '/^contexts:/ {print $2}')
    c1=$("$build/hpcdb" info "$work/db-s-$size" | awk '/^contexts:/ {print $2}')
    printf '| %s | %s | %s | %s | %s | %.2f | %.0f | %.0f | %s | %s |\n' "$T × $C" "$smb" "$j" "$s0" "$s1" \
      "$(awk -v a="$s1" -v b="$s0" 'BEGIN { print a / b }')" "$(awk -v k="$k0" 'BEGIN { print k / 1024 }')" \
      "$(awk -v k="$k1" 'BEGIN { print k / 1024 }')" "$c0" "$c1"
  done
done
