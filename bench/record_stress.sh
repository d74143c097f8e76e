#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# The recorder's stress campaign (issue 29): every stress program of
# tests/record/stress.sh, 10,000 short-lived threads among them, RUNS times
# (default 5), then a program that runs for LONG_SECONDS (default 600) once
# alone and once recorded with traces, side by side (it sleeps most of each
# second), the recorded one's resident memory sampled every 10 s (bounded
# memory: it grows only by the threads' small structs). SUITE=0: only the long run.
# ctest's record/stress runs the quick list once; this is the long one.
#   bench/record_stress.sh BUILD_DIR [WORK_DIR]     (RUNS=N LONG_SECONDS=S)
set -u
build=$(realpath "${1:?usage: bench/record_stress.sh BUILD_DIR [WORK_DIR]}")
work=${2:-$build/bench-work/record-stress}
runs=${RUNS:-5} long=${LONG_SECONDS:-600}
here=$(dirname "$(realpath "$0")")
bin=$build/tests/record
mkdir -p "$work"
status=0
[ "${SUITE:-1}" = 0 ] || bash "$here/../tests/record/stress.sh" "$build/hpcdb" "$bin" "$work/suite" "$runs" \
  threads threads-at-once fork-tree exec-chain vfork-exec own-sigprof own-sigalrm sigaltstack longjmp-handler \
  deep-recursion dlopen-loop exit-from-thread close-all select-sleeps exceptions segfault abort fork-threads \
  signal-storm blocked-signals posix-spawn malloc-threads file-size-limit || status=1

# the long run: alone, then recorded with traces while its resident memory is sampled
[ "$long" -gt 0 ] || exit $status
s=$(date +%s.%N)
( "$bin/record_stress" long-run "$long" > "$work/long.alone"
  echo "$? $(echo "$(date +%s.%N) - $s" | bc)" > "$work/long.alone.status" ) &
alone=$!
rm -rf "$work/long.m"
"$build/hpcdb" record -t -o "$work/long.m" "$bin/record_stress" long-run "$long" > "$work/long.out" 2> "$work/long.err" &
rec=$!
echo "seconds  recorded program's VmRSS (KiB)" > "$work/long.rss"
for _ in $(seq $((long / 10 + 30))); do
  sleep 10
  kid=$(pgrep -P $rec | head -1)
  [ -n "$kid" ] || break
  echo "$(printf '%.0f' "$(echo "$(date +%s.%N) - $s" | bc)")  $(awk '/VmRSS/ {print $2}' /proc/$kid/status 2>/dev/null)" >> "$work/long.rss"
done
wait $rec
rec_rc=$? rec_s=$(echo "$(date +%s.%N) - $s" | bc)
wait $alone
read -r alone_rc alone_s < "$work/long.alone.status"
harmed=""
[ $rec_rc -eq $alone_rc ] || harmed="exit $rec_rc, alone $alone_rc"
cmp -s "$work/long.alone" "$work/long.out" || harmed="$harmed; output differs"
"$build/hpcdb" validate --errors-only "$work/long.m" > /dev/null 2>&1 || harmed="$harmed; the measurement does not validate"
printf "long-run:%-11s runs 1  harmed %d  exit %3d  alone %6.2f s  recorded %6.2f s  %s\n" "$long" \
  "$([ -z "$harmed" ] && echo 0 || echo 1)" "$alone_rc" "$alone_s" "$rec_s" "$harmed"
echo "resident memory of the recorded long run (KiB), first and last samples:"
sed -n '2p;$p' "$work/long.rss"
[ -z "$harmed" ] || status=1
exit $status
