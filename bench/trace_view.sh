#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# The trace view's benchmark: generated v4.0 databases (bench/gen_trace_db)
# of 1,024 profiles x 250,000 elements (3.07 GB trace.db) and of 570,000
# elements (16 x 35,625); for each: `cat` of trace.db, the index built in one
# pass (no cache), opened again from the cache, tiles of 2000 x 1000 cells at
# four zooms and the whole run's statistics (bench_trace), with peak RSS.
# Usage: bench/trace_view.sh BUILD_DIR [WORK_DIR]   (needs ~3.2 GB of disk)
set -eu
build=$(cd "$1" && pwd)
work=${2:-$build/bench-trace}
mkdir -p "$work"
cd "$work"
gen() { [ -f "$1/trace.db" ] || nice -n 10 "$build/gen_trace_db" --profiles "$2" --events "$3" --period 1000 -o "$1"; }
gen big 1024 250000
gen p570k 16 35625
export XDG_CACHE_HOME="$work/xdg-cache"
for db in p570k big; do
  echo "== $db: $(du -h "$db/trace.db" | cut -f1) trace.db"
  # under the same nice as the index build: on a shared machine the ratio is then of like with like
  for i in 1 2 3; do nice -n 10 /usr/bin/time -f "cat trace.db: %e s wall, %S s CPU" cat "$db/trace.db" > /dev/null; done
  rm -rf "$XDG_CACHE_HOME"
  nice -n 10 /usr/bin/time -f "bench_trace (no cache): %e s wall, %M KB peak RSS" "$build/bench_trace" --no-cache "$db"
  nice -n 10 "$build/bench_trace" "$db" > /dev/null   # writes the cache
  nice -n 10 /usr/bin/time -f "bench_trace (cached index): %e s wall, %M KB peak RSS" "$build/bench_trace" "$db"
done
# first paint in chromium, from the trace server's start (includes chromium's own start)
if [ -d "$build/../tests/trace/node_modules/playwright-core" ] && [ -x /usr/bin/chromium ]; then
  for db in p570k big; do
    rm -rf "$XDG_CACHE_HOME"
    nice -n 10 node "$build/../bench/trace_first_paint.mjs" "$build/tests/trace_serve" "$build/../src/lib/page/assets/trace" "$work/$db"
  done
fi
# the same 570 k elements through hpcdb's Python events() (Pipit's event table) and traces()
if [ -d "$build/python/hpcdb" ]; then
  for i in 1 2 3; do
    PYTHONPATH="$build/python" nice -n 10 python3 -c "
import hpcdb, time
t = time.perf_counter(); e = hpcdb.open('$work/p570k'); ev = e.events(); t1 = time.perf_counter()
tr = e.traces(); t2 = time.perf_counter()
print('python: open + events(): %.3f s (%d rows); traces(): %.3f s (%d rows)' % (t1 - t, len(ev), t2 - t1, len(tr)))"
  done
fi
if python3 -c 'import pipit' 2>/dev/null; then
  echo "pipit: installed; time it with: python3 -c 'import pipit; pipit.Trace.from_hpctoolkit(\"DB\")'"
else
  echo "pipit: not installed here (no PyPI access): its figure is not measured"
fi
