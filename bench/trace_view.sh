#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# The trace view's benchmark: generated v4.0 databases (bench/gen_trace_db)
# of PROFILES x 250,000 elements (1,024: 3.07 GB trace.db, the issue's size;
# fewer where the disk or the machine cannot afford it) and of 570,000
# elements (16 x 35,625). Five interleaved rounds per database of: `cat` of
# trace.db, the index built (no cache file) and written to the cache, the
# first whole-run tile kept after it (as hpcdb view does), then
# opened from the cache; each open followed by tiles of 2000 x 1000 cells at
# four zooms (the whole run as the page asks it, kept in the cache since the
# index pass, and computed), the whole run's summary and statistics (bench_trace). With
# MAIN_BUILD=DIR (another build, e.g. of main), the same rounds run its
# bench_trace too, interleaved, each right after this build's. Prints
# every round, then the best and median of each figure, the ratio of the
# index to `cat`, and the load. Then the first paint in chromium under
# `hpcdb view` (bench/trace_first_paint.mjs).
# Usage: [MAIN_BUILD=DIR] bench/trace_view.sh BUILD_DIR [WORK_DIR] [PROFILES]   (PROFILES x 3 MB of disk)
set -eu
build=$(cd "$1" && pwd)
work=${2:-$build/bench-trace}
profiles=${3:-1024}
mkdir -p "$work"
cd "$work"
gen() { [ -f "$1/trace.db" ] || nice -n 10 "$build/gen_trace_db" --profiles "$2" --events "$3" --period 1000 -o "$1"; }
big=big$profiles
gen "$big" "$profiles" 250000
gen p570k 16 35625
export XDG_CACHE_HOME="$work/xdg-cache"
# the figure of a bench_trace line: "NAME: 12.3 ms (4.5 ms CPU ..." -> "12.3 4.5"
ms() { sed -n "s/^$1[^:]*: \([0-9.]*\) ms (\([0-9.]*\) ms CPU.*/\1 \2/p" "$2"; }
# best and median (of wall) over the rounds of one figure: lines "WALL CPU"
best_median() {
  sort -n | awk -v what="$1" '{ w[NR] = $1; c[NR] = $2 } END {
    if (NR) printf "  %-40s best %8.1f ms (%.1f CPU)  median %8.1f ms (%.1f CPU)  [%d rounds]\n", what, w[1], c[1], w[int((NR + 1) / 2)], c[int((NR + 1) / 2)], NR }'
}
for db in p570k "$big"; do
  echo "== $db: $(du -h "$db/trace.db" | cut -f1) trace.db; load $(cut -d' ' -f1-3 /proc/loadavg)"
  rm -f rounds.*
  for i in 1 2 3 4 5; do
    # under the same nice as the index build: on a shared machine the ratio is then of like with like
    nice -n 10 /usr/bin/time -f "%e %S" -o cat.t cat "$db/trace.db" > /dev/null
    awk '{ printf "%.1f %.1f\n", $1 * 1000, $2 * 1000 }' cat.t >> rounds.cat
    rm -rf "$XDG_CACHE_HOME"
    nice -n 10 "$build/bench_trace" "$db" > built.out
    nice -n 10 "$build/bench_trace" "$db" > cached.out
    echo "round $i: cat $(cat rounds.cat | tail -1 | cut -d' ' -f1) ms; built:"; sed 's/^/    /' built.out
    echo "  cached:"; sed 's/^/    /' cached.out
    if [ -n "${MAIN_BUILD:-}" ]; then
      rm -rf "$XDG_CACHE_HOME"
      nice -n 10 "$MAIN_BUILD/bench_trace" "$db" > main-built.out
      nice -n 10 "$MAIN_BUILD/bench_trace" "$db" > main-cached.out
      echo "  main, built:"; sed 's/^/    /' main-built.out
      ms "trace open, index built" main-built.out >> rounds.main.index
      ms "tile 2000x[0-9]* of 1\/1 of the run ([0-9]* ns)," main-cached.out >> rounds.main.tile1x
      ms "summary" main-cached.out >> rounds.main.summary
    fi
    ms "trace open, index built" built.out >> rounds.index
    ms "first tile kept" built.out >> rounds.kept
    ms "trace open, index from the cache" cached.out >> rounds.open
    ms "tile 2000x[0-9]* of 1\/1 of the run ([0-9]* ns) as the page" built.out >> rounds.tile1
    ms "tile 2000x[0-9]* of 1\/1 of the run ([0-9]* ns) as the page" cached.out >> rounds.tile1c
    ms "tile 2000x[0-9]* of 1\/1 of the run ([0-9]* ns)," cached.out >> rounds.tile1x
    ms "tile 2000x[0-9]* of 1\/100 of" cached.out >> rounds.tile100
    ms "summary" cached.out >> rounds.summary
    ms "statistics" cached.out >> rounds.stats
    sed -n 's/.*[(;] peak \([0-9]*\) MB)$/\1/p' built.out cached.out | sort -n | tail -1 >> rounds.peak
  done
  echo "-- $db, load now $(cut -d' ' -f1-3 /proc/loadavg); cache file $(du -b "$XDG_CACHE_HOME"/hpcdb/*.idx | cut -f1) bytes, trace.db $(stat -c %s "$db/trace.db") bytes"
  best_median "cat trace.db" < rounds.cat
  best_median "index built (with the cache written)" < rounds.index
  best_median "first tile kept after it (hpcdb view)" < rounds.kept
  paste -d' ' rounds.index rounds.kept | awk '{ print $1 + $3, $2 + $4 }' | best_median "index and first tile kept"
  best_median "open from the cache" < rounds.open
  best_median "whole-run tile as the page asks it, after the build (kept)" < rounds.tile1
  best_median "whole-run tile as the page asks it, from the cache (kept)" < rounds.tile1c
  best_median "whole-run tile computed" < rounds.tile1x
  best_median "tile of 1/100 of the run" < rounds.tile100
  best_median "summary of the whole run (2000 columns)" < rounds.summary
  best_median "statistics of the whole run" < rounds.stats
  echo "  peak RSS over the rounds: $(sort -n rounds.peak | tail -1) MB"
  if [ -n "${MAIN_BUILD:-}" ]; then
    best_median "main: index built (with the cache written)" < rounds.main.index
    best_median "main: whole-run tile computed" < rounds.main.tile1x
    best_median "main: summary of the whole run" < rounds.main.summary
  fi
  # the issue's ratio (index <= 2.5x cat): best over best, median over median, and each round's own
  ratio() { sort -n "$1" | awk '{ w[NR] = $1 } END { print w[1], w[int((NR + 1) / 2)] }'; }
  echo "$(ratio rounds.index) $(ratio rounds.cat)" |
    awk '$3 > 0 { printf "  index / cat: best / best %.2fx, median / median %.2fx\n", $1 / $3, $2 / $4 }'
  paste -d' ' rounds.index rounds.kept | awk '{ print $1 + $3 }' > rounds.indexkept
  echo "$(ratio rounds.indexkept) $(ratio rounds.cat)" |
    awk '$3 > 0 { printf "  index and first tile kept / cat: best / best %.2fx, median / median %.2fx\n", $1 / $3, $2 / $4 }'
  paste -d' ' rounds.index rounds.cat | awk '$3 > 0 { print $1 / $3 }' | sort -n |
    awk '{ r[NR] = $1 } END { if (NR) printf "  index / cat, round by round: lowest %.2fx, median %.2fx\n", r[1], r[int((NR + 1) / 2)] }'
  if [ -n "${MAIN_BUILD:-}" ]; then
    echo "$(ratio rounds.index) $(ratio rounds.main.index)" |
      awk '$3 > 0 { printf "  index / main'"'"'s index: best / best %.2fx, median / median %.2fx\n", $1 / $3, $2 / $4 }'
  fi
done
# first paint in chromium under `hpcdb view`: chromium started first (its start printed apart), the clock
# from the server's spawn; no cache at all, the cache present, no index with the page's size remembered
if { [ -d "$build/../tests/trace/node_modules/playwright-core" ] || [ -d "$build/../tests/view/node_modules/playwright-core" ]; } &&
   [ -x /usr/bin/chromium ]; then
  [ -d "$build/../tests/trace/node_modules/playwright-core" ] || export PLAYWRIGHT_DIR="$build/../tests/view"
  for db in p570k "$big"; do
    echo "== first paint, $db; load $(cut -d' ' -f1-3 /proc/loadavg)"
    nice -n 10 node "$build/../bench/trace_first_paint.mjs" "$build/hpcdb" "$work/$db" "$work/xdg-paint" 3
    if [ -n "${MAIN_BUILD:-}" ]; then
      echo "-- the same with $MAIN_BUILD/hpcdb"
      nice -n 10 node "$build/../bench/trace_first_paint.mjs" "$MAIN_BUILD/hpcdb" "$work/$db" "$work/xdg-paint-main" 3
    fi
  done
else
  echo "first paint: not measured (needs /usr/bin/chromium and playwright-core: npm ci in tests/trace or tests/view)"
fi
# the same 570 k elements through hpcdb's Python events() (Pipit's event table) and traces()
if [ -d "$build/python/hpcdb" ] && python3 -c "import numpy" 2>/dev/null; then
  for i in 1 2 3; do
    PYTHONPATH="$build/python" nice -n 10 python3 -c "
import hpcdb, time
t = time.perf_counter(); e = hpcdb.open('$work/p570k'); ev = e.events(); t1 = time.perf_counter()
tr = e.traces(); t2 = time.perf_counter()
print('python: open + events(): %.3f s (%d rows); traces(): %.3f s (%d rows)' % (t1 - t, len(ev), t2 - t1, len(tr)))"
  done
fi
# Pipit side by side, where it is importable (Debian has no Pipit)
if python3 -c 'import pipit' 2>/dev/null; then
  for i in 1 2 3 4 5; do
    nice -n 10 python3 -c "
import pipit, time
t = time.perf_counter(); tr = pipit.Trace.from_hpctoolkit('$work/p570k'); print('pipit: Trace.from_hpctoolkit: %.3f s (%d events)' % (time.perf_counter() - t, len(tr.events)))"
  done
else
  echo "pipit: not importable here (Debian has no Pipit package): its side of the comparison is not measured"
fi
