#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Commands on a large Cube file (issue 11 point 12): for each command, the
# best of N runs by CPU time (user + system: on a shared machine the wall time
# is mostly waiting for a core), with that run's wall time and peak RSS; the
# output is checked against BASELINE_HPCDB's (another build, e.g. main's)
# when one is given. Then bench_cube (the direct-access API the Python binding
# uses) and, when PYTHONPATH holds the binding, bench/python_bench.py cube.
# Usage: bench/cube_commands.sh BUILD_DIR FILE.cubex [BASELINE_HPCDB] [N]
#   FILE e.g. gen_v4db --profiles 256 --contexts 10000 --metrics 4 -o v4-256;
#             hpcdb convert --to cube v4-256 c256.cubex
set -euo pipefail
build=${1:?usage: bench/cube_commands.sh BUILD_DIR FILE.cubex [BASELINE_HPCDB] [N]}
file=${2:?} base=${3:-} n=${4:-5}
here=$(cd "$(dirname "$0")" && pwd)
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
cat "$file" > /dev/null # into the page cache

best() { # LABEL CMD...: "label  cpu s (user+sys)  wall s  RSS MB" of the run with the least CPU
  local label=$1 t line bc=999 bl=""
  shift
  t=$(mktemp)
  for _ in $(seq "$n"); do
    /usr/bin/time -o "$t" -f "%U %S %e %M" "$@" > "$out/stdout" 2> /dev/null
    line=$(tail -n 1 "$t")
    if awk -v l="$line" -v b="$bc" 'BEGIN { split(l, f, " "); exit !(f[1] + f[2] < b) }'; then
      bc=$(awk -v l="$line" 'BEGIN { split(l, f, " "); print f[1] + f[2] }')
      bl=$line
    fi
  done
  rm -f "$t"
  awk -v label="$label" -v l="$bl" 'BEGIN { split(l, f, " ");
    printf "%-48s cpu %.2f s (%.2f+%.2f)  wall %.2f s  RSS %.0f MB\n", label, f[1] + f[2], f[1], f[2], f[3], f[4] / 1024 }'
}

same_output() { # ARGS...: this build's output is the baseline's
  [ -n "$base" ] || return 0
  "$build/hpcdb" "$@" > "$out/new" 2>&1 || true
  "$base" "$@" > "$out/old" 2>&1 || true
  cmp -s "$out/new" "$out/old" || echo "  OUTPUT DIFFERS from $base: hpcdb $*"
}

echo "$(basename "$file"): $(du -m "$file" | cut -f1) MB; load average $(cut -d' ' -f1-3 /proc/loadavg)"
best "cat (floor)" cat "$file"
m0=$("$build/hpcdb" info "$file" | awk '/^  [^ ]/ && !/SUMMARY|NODE|RANK/ { sub(/^  /, ""); print; exit }')
for args in "info" "info --quiet" "report" "report --view bottom-up" "report --view flat" \
            "report --metric $m0" "report --view profiles --metric $m0" "validate"; do
  # shellcheck disable=SC2086
  if [[ $args == *--metric* ]]; then set -- ${args% --metric*} --metric "$m0"; else set -- $args; fi
  [ -z "$base" ] || best "main: hpcdb $*" "$base" "$@" "$file"
  best "hpcdb $*" "$build/hpcdb" "$@" "$file"
  same_output "$@" "$file"
done
best "hpcdb dump --json (everything)" "$build/hpcdb" dump --json "$file"
best "hpcdb export --format csv (everything)" "$build/hpcdb" export --format csv "$file" -o /dev/null
best "bench_cube (direct API, every metric)" "$build/bench_cube" "$file"
if [ -n "${PYTHONPATH:-}" ]; then
  for case in cube cubedf; do
    echo "python_bench.py $case: $(/usr/bin/python3 "$here/python_bench.py" "$case" "$file") (case s MB values base-MB cpu-s)"
  done
fi
