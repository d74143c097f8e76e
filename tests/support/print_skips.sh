#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Run by ctest after the tests (CTEST_CUSTOM_POST_TEST, see tests/CMakeLists.txt): ctest shows a
# skipped test as "***Skipped" without its output, so this prints each skipped test's reason (the
# last line it printed, which says "skipped" and why) from the run's log.
log=${1:-Testing/Temporary/LastTest.log.tmp} # the run's log is .tmp until ctest ends
[ -f "$log" ] || exit 0
awk '
  /^[0-9]+\/[0-9]+ Test: / { name = $0; sub(/^[0-9]+\/[0-9]+ Test: /, "", name); out = 0; last = ""; next }
  /^Output:$/ { out = 1; getline; next }
  /^<end of output>$/ { if (last ~ /^[Ss]kip/ || last ~ /: skipped\.?$/) { if (!n++) print "Why tests were skipped:"; print "  " name ": " last } out = 0; next }
  out && NF { last = $0 }
' "$log"
