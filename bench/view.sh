#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# hpcdb view on a generated v4.0 database: cold start, each route's time on
# loopback (first and second asking), the server's resident set, first paint
# in chromium (when playwright-core is installed), against hpcdb report and
# `cat` of the same bytes.
# Usage: bench/view.sh BUILD_DIR [PROFILES CONTEXTS METRICS]   (default 64 10000 4)
#        bench/view.sh BUILD_DIR FILE                         (any file hpcdb reads, e.g. a .cubex)
set -eu
build=$(cd "$1" && pwd)
P=${2:-64} C=${3:-10000} M=${4:-4}
hpcdb=$build/hpcdb
data=$build/bench-data
db=$data/v4-${P}x${C}x${M}
mkdir -p "$data"
if [ -e "${2:-}" ]; then db=$(realpath "$2"); P=$("$hpcdb" info "$db" | awk '/^profiles:/{print $2 - 1; exit}'); fi
[ -e "$db" ] || "$build/bench/gen_v4db" --profiles "$P" --contexts "$C" --metrics "$M" -o "$db" >/dev/null 2>&1 ||
  "$build/gen_v4db" --profiles "$P" --contexts "$C" --metrics "$M" -o "$db" >/dev/null
now() { date +%s.%N; }
secs() { echo "$2 - $1" | bc; }
echo "database: $db ($(du -sh "$db" | cut -f1)), machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')"
t0=$(now); if [ -d "$db" ]; then cat "$db"/*.db > /dev/null; else cat "$db" > /dev/null; fi; t1=$(now)
echo "floor: cat of the database's files: $(secs "$t0" "$t1") s"
metric=$("$hpcdb" info "$db" | awk '/^metrics:/{getline; sub(/^ +/, ""); print; exit}')
for view in top-down bottom-up flat; do
  t0=$(now); "$hpcdb" report --view "$view" --metric "$metric" "$db" > /dev/null; t1=$(now)
  echo "hpcdb report --view $view: $(secs "$t0" "$t1") s"
done
out=$(mktemp)
t0=$(now)
"$hpcdb" view --port 0 "$db" > "$out" &
pid=$!
trap 'kill "$pid" 2>/dev/null; rm -f "$out"' EXIT
while ! grep -q token "$out" 2>/dev/null; do sleep 0.01; done
t1=$(now)
echo "hpcdb view: cold start to the printed URL: $(secs "$t0" "$t1") s"
url=$(head -1 "$out" | sed 's/hpcdb view: //')
base=${url%%/?token=*}
tok=${url##*token=}
ask() { # WHAT PATH: time of one request
  curl -s -o /dev/null -w "%{http_code} %{time_total}\n" --cookie "hpcdb_token=$tok" "$base$2" | {
    read -r code t
    printf '  %-44s %s s (HTTP %s)\n' "$1" "$t" "$code"
  }
}
m=$(python3 -c 'import urllib.parse,sys; print(urllib.parse.quote(sys.argv[1]))' "$metric")
echo "routes (curl on loopback, the whole request):"
ask "info (metric names; totals come with values)" "/api/info"
ask "top-down root children (first)" "/api/children?node=0&metric=$m"
ask "top-down root children (again)" "/api/children?node=0&metric=$m"
big=$(curl -s --cookie "hpcdb_token=$tok" "$base/api/hotpath?node=0&metric=$m" | python3 -c 'import json,sys; p=json.load(sys.stdin)["path"]; print(p[min(2,len(p)-1)])')
ask "expand a node" "/api/children?node=$big&metric=$m"
ask "re-sort by exclusive" "/api/children?node=$big&metric=$m&sort=exclusive"
ask "switch metric (first use of \$1)" "/api/children?node=0&metric=%241"
ask "bottom-up (first)" "/api/children?view=bottom-up&node=0&metric=$m&sort=exclusive"
ask "bottom-up (again)" "/api/children?view=bottom-up&node=0&metric=$m&sort=exclusive"
ask "flat (first)" "/api/children?view=flat&node=0&metric=$m&sort=exclusive"
ask "flat (again)" "/api/children?view=flat&node=0&metric=$m&sort=exclusive"
ask "distribution of a node over $P profiles" "/api/spread?node=$big&metric=$m"
ask "distribution (again)" "/api/spread?node=$big&metric=$m"
ask "distribution, exclusive (first)" "/api/spread?node=$big&metric=$m&flavour=exclusive"
ask "distribution of the root" "/api/spread?node=0&metric=$m"
ask "one profile's own tree (first)" "/api/children?node=0&metric=$m&profile=1"
ask "search ^f1" "/api/search?re=%5Ef1"
ask "derived metric \$0*2" "/api/children?node=0&metric=%240*2"
here=$(cd "$(dirname "$0")" && pwd)
if [ -d "$here/../tests/view/node_modules/playwright-core" ] && [ -x /usr/bin/chromium ]; then
  node "$here/view_paint.mjs" "$url"
else
  echo "first paint: not measured (needs chromium and playwright-core: scripts/deps.sh --browser)"
fi
echo "server RSS after the session: $(awk '/VmRSS/{print $2, $3}' /proc/$pid/status), peak $(awk '/VmHWM/{print $2, $3}' /proc/$pid/status)"
