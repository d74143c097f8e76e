#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# A measurement's "NoActvty" records are idle, as in the database hpcprof made of it: the trace report's
# <not running> line of the raw .m equals the .d's.
# Usage: check_idle.sh HPCDB MEASUREMENTS DATABASE
idle() { "$1" report --view trace "$2" | grep '<not running>'; }
m=$(idle "$1" "$2") && d=$(idle "$1" "$3") || { echo "FAIL: no <not running> line"; exit 1; }
[ "$m" = "$d" ] || { echo "FAIL: measurements: $m"; echo "      database:     $d"; exit 1; }
echo "idle alike: $m"
