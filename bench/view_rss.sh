#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# The resident set of `hpcdb view A B` (issue 39, "one source handle"): after
# start, after the tables of A, after the timeline's request, after the
# comparison's routes; current (VmRSS) and peak (VmHWM). Run it with two
# binaries in one go to compare them.
# Usage: bench/view_rss.sh A B HPCDB [HPCDB ...]
#   e.g. gen_v4db --profiles 256 --contexts 100000 --metrics 8 --seed 1 -o a.d (and --perturb 0.1 -o b.d)
set -eu
a=$1 b=$2
shift 2
echo "A: $a ($(du -sh "$a" | cut -f1)), B: $b ($(du -sh "$b" | cut -f1)), load: $(cut -d' ' -f1-3 /proc/loadavg)"
for hpcdb in "$@"; do
  out=$(mktemp)
  "$hpcdb" view --port 0 --no-browser "$a" "$b" > "$out" &
  pid=$!
  while ! grep -q token "$out" 2>/dev/null; do sleep 0.05; done
  url=$(head -1 "$out" | sed 's/hpcdb view: //')
  base=${url%%/?token=*}
  tok=${url##*token=}
  get() { curl -s -o /dev/null --cookie "hpcdb_token=$tok" "$base$1"; }
  mem() { awk '/^VmRSS/{r=$2} /^VmHWM/{h=$2} END{printf "%6.0f MB (peak %6.0f MB)", r / 1024, h / 1024}' "/proc/$pid/status"; }
  echo "$hpcdb"
  echo "  started:                          $(mem)"
  get "/api/info"; get "/api/children?node=0"; get "/api/children?node=0&db=1"
  echo "  tables of A and B:                $(mem)"
  get "/api/trace/info"; get "/api/trace/info?db=1"
  echo "  + timeline asked for:             $(mem)"
  get "/api/compare"; get "/api/compare/children?view=flat&limit=200"; get "/api/compare/children?node=0"
  echo "  + comparison (flat, top-down):    $(mem)"
  kill "$pid"
  wait "$pid" 2>/dev/null || true
  rm -f "$out"
done
