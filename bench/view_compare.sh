#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# hpcdb view A B's comparison routes on two generated v4.0 databases (B with
# 10 % of its contexts perturbed, as bench/compare.sh makes them): each route's
# time on loopback (the first /api/compare reads both runs and compares them),
# the server's resident set, against `hpcdb compare A B` printing the same.
# Usage: bench/view_compare.sh HPCDB A B
set -eu
hpcdb=$1 a=$2 b=$3
now() { date +%s.%N; }
secs() { echo "$2 - $1" | bc; }
echo "A: $a ($(du -sh "$a" | cut -f1)), B: $b, machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')"
t0=$(now); "$hpcdb" compare "$a" "$b" > /dev/null; t1=$(now)
echo "hpcdb compare A B: $(secs "$t0" "$t1") s"
t0=$(now); "$hpcdb" compare --view flat --top 200 "$a" "$b" > /dev/null; t1=$(now)
echo "hpcdb compare --view flat --top 200 A B: $(secs "$t0" "$t1") s"
out=$(mktemp)
"$hpcdb" view --port 0 --no-browser "$a" "$b" > "$out" &
pid=$!
trap 'kill "$pid" 2>/dev/null; rm -f "$out"' EXIT
while ! grep -q token "$out" 2>/dev/null; do sleep 0.01; done
url=$(head -1 "$out" | sed 's/hpcdb view: //')
base=${url%%/?token=*}
tok=${url##*token=}
ask() { # WHAT PATH: time of one request
  curl -s -o /dev/null -w "%{http_code} %{time_total}\n" --cookie "hpcdb_token=$tok" "$base$2" | {
    read -r code t
    printf '  %-46s %s s (HTTP %s)\n' "$1" "$t" "$code"
  }
}
rss() { awk '/^VmRSS/{print $2 / 1024 " MB"}' "/proc/$pid/status"; }
echo "server before any comparison: $(rss)"
echo "routes (curl on loopback, the whole request):"
ask "compare (first: reads and compares A and B)" "/api/compare"
ask "compare (again)" "/api/compare"
ask "top-down root children" "/api/compare/children?node=0"
ask "flat, first 200 of every node" "/api/compare/children?view=flat&limit=200"
ask "flat by ratio" "/api/compare/children?view=flat&limit=200&sort=ratio"
ask "bottom-up (first: per-function sums)" "/api/compare/children?view=bottom-up&limit=200"
ask "bottom-up (again)" "/api/compare/children?view=bottom-up&limit=200"
echo "server after: $(rss)"
