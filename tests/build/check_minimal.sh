#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# The minimal build: HPCDB_WITH_STRUCT, HPCDB_WITH_CUBE and HPCDB_WITH_OLDER
# OFF, configured and built (the library and the command) in WORK. Neither
# libhpcdb.so nor hpcdb needs libdw, libelf, libexpat or zlib; `hpcdb formats`
# lists v4.0 and hpcrun alone; v4.0 reads; what needs a part left out refuses
# naming it. Costs a build of the library and the command (about 4 minutes of
# one core). Usage: check_minimal.sh SOURCE WORK SAMPLES C_COMPILER [LAUNCHER]
set -u
src=$1 work=$2 samples=$3 cc=$4 launcher=${5:-}
fail=0
rm -rf "$work" && mkdir -p "$work"
if ! cmake -S "$src" -B "$work" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_C_COMPILER="$cc" \
     -DCMAKE_C_COMPILER_LAUNCHER="$launcher" -DHPCDB_PACKAGE_ONLY=ON \
     -DHPCDB_WITH_STRUCT=OFF -DHPCDB_WITH_CUBE=OFF -DHPCDB_WITH_OLDER=OFF >"$work/configure.log" 2>&1 ||
   ! cmake --build "$work" --target hpcdb hpcdb_shared -j 2 >"$work/build.log" 2>&1; then
  tail -n 30 "$work/configure.log" "$work/build.log"
  exit 1
fi
for bin in "$work"/libhpcdb.so "$work"/hpcdb; do
  needed=$(readelf -d "$bin" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p' | tr '\n' ' ')
  echo "$(basename "$bin") NEEDED: $needed"
  for lib in libdw libelf libexpat libz; do
    case " $needed" in *" $lib."*) echo "$(basename "$bin") needs $lib"; fail=1 ;; esac
  done
done
"$work"/hpcdb formats >"$work/formats.txt" 2>&1
if ! diff -u "$src/tests/build/minimal_formats.txt" "$work/formats.txt"; then fail=1; fi
# refuses WANT COMMAND...: the command fails and its message says WANT
refuses() {
  want=$1; shift
  if "$@" >/dev/null 2>"$work/err.txt"; then echo "accepted: $*"; fail=1; return; fi
  grep -qF "$want" "$work/err.txt" || { echo "$*: $(cat "$work/err.txt") (wanted: $want)"; fail=1; }
}
refuses "built without Cube files (HPCDB_WITH_CUBE=OFF)" "$work"/hpcdb info "$samples/cube/all-dtypes.cubex"
refuses "built without program structure (HPCDB_WITH_STRUCT=OFF)" "$work"/hpcdb struct /bin/true -o "$work/true.hpcstruct"
refuses "built without program structure (HPCDB_WITH_STRUCT=OFF)" "$work"/hpcdb analyze "$samples/hpcrun/small.m" -o "$work/small.d"
refuses "HPCToolkit's formats before v4.0 (HPCDB_WITH_OLDER=OFF)" "$work"/hpcdb info "$samples/hpctoolkit-legacy/cpi-mpi"
"$work"/hpcdb info "$samples/hpctoolkit-v4/cpi-mpi" >/dev/null || { echo "v4.0 not read"; fail=1; }
[ $fail = 0 ] && echo "minimal build: no libdw, libelf, expat or zlib; v4.0 and hpcrun only; the rest refuses"
exit $fail
