#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Benchmarks `hpcdb-mpi analyze` across test hosts that talk over TCP: network namespaces joined by a
# bridge (tests/mpi/netns_hosts.sh, as the tests make them), 2 hosts x 1 and 2 ranks, Open MPI's TCP
# transport only. For each size: hpcdb analyze -j 2 on this machine, then the ranks across the hosts: the
# ranks' CPU (their own, from --report) against hpcdb analyze's, the bytes the ranks sent each other
# (per context of the run's tree and per profile), and whether the database is byte-identical. As root.
# Usage: bench/analyze_mpi_netns.sh BUILD_DIR [WORK_DIR] [SIZES...]   (a size is THREADSxCONTEXTS)
# MEAS_ROOT=DIR: take DIR/meas-SIZE when it exists (e.g. from bench/analyze_mpi.sh) instead of generating.
# Uses the subnet 10.78.1.0/24 and the names hpcdbb*: one run at a time on a machine.
set -uo pipefail # not -e: the host functions (netns_hosts.sh) check what matters themselves
build=$(cd "${1:?usage: bench/analyze_mpi_netns.sh BUILD_DIR [WORK_DIR] [SIZES...]}" && pwd)
work=${2:-$build/bench-work}
shift $(( $# >= 2 ? 2 : 1 ))
sizes=("$@")
[ ${#sizes[@]} -gt 0 ] || sizes=(256x10000 64x100000)
mkdir -p "$work"
work=$(cd "$work" && pwd)
fail() { echo "bench/analyze_mpi_netns.sh: $*" >&2; exit 1; }
skip() { fail "$*"; }
[ "$(id -u)" = 0 ] || fail "the test hosts need root (ip netns)"
subnet=10.78.1 bridge=hpcdbb-br out=$work/netns
export HPCDB_NETNS_PREFIX=hpcdbb HPCDB_NETNS_TMP=$out/hosts.tmp
mkdir -p "$out" "$HPCDB_NETNS_TMP"
. "$(dirname "$0")/../tests/mpi/netns_hosts.sh"
trap hosts_down EXIT

same() { for f in profile.db cct.db meta.db trace.db metrics/default.yaml; do cmp -s "$1/$f" "$2/$f" || { echo no; return; }; done; echo yes; }

echo "machine: $(nproc) cores, $(awk '/MemTotal/ {printf "%.0f GiB", $2/1048576}' /proc/meminfo), $(uname -sr), load average $(cut -d' ' -f1-3 /proc/loadavg)"
echo "command: bench/analyze_mpi_netns.sh $build $work ${sizes[*]}"
echo
echo '| threads × contexts | run | wall s | CPU s | × analyze -j 2 CPU | sent MB | B/context | KB/profile | same bytes |'
echo '|---|---|---|---|---|---|---|---|---|'
for size in "${sizes[@]}"; do
  IFS=x read -r T C <<<"$size"
  meas=$work/meas-$size-s0.8-d0.25
  [ -n "${MEAS_ROOT:-}" ] && [ -d "$MEAS_ROOT/meas-$size" ] && meas=$MEAS_ROOT/meas-$size
  [ -d "$meas" ] || "$build/gen_measurements" --threads "$T" --contexts "$C" --metrics 4 --depth 16 \
    --samples 1000 --shared 0.8 --density 0.25 -o "$meas" >/dev/null
  s=$(date +%s%N)
  /usr/bin/time -o "$work/time" -f "%U %S" "$build/hpcdb" analyze --quiet --force -j 2 "$meas" -o "$work/ref" > /dev/null || fail "hpcdb analyze exited $?"
  e=$(date +%s%N)
  ref_cpu=$(awk '{printf "%.2f", $1 + $2}' "$work/time")
  contexts=$("$build/hpcdb" info "$work/ref" | awk '/^contexts/ {print $2; exit}')
  profiles=$(find "$meas/" -name '*.hpcrun' | wc -l) # the folder itself may be a link
  printf '| %s | hpcdb analyze -j 2 | %.2f | %s | 1 | | | | |\n' "$T × $C" "$(awk -v n=$((e - s)) 'BEGIN{print n/1e9}')" "$ref_cpu"
  for ranks in 1 2; do
    hosts_up 2 "$ranks"
    s=$(date +%s%N)
    # shellcheck disable=SC2046 # the arguments have no blanks
    mpirun $(netns_mpi_args) -np $((2 * ranks)) "$build/hpcdb-mpi" analyze --quiet --force --report "$meas" -o "$work/mpi" \
      > /dev/null 2> "$work/stderr" || { cat "$work/stderr" >&2; fail "hpcdb-mpi exited $?"; }
    e=$(date +%s%N)
    cpu=$(grep -o '[0-9.]* s CPU' "$work/stderr" | awk '{s += $1} END {printf "%.2f", s}')
    sent=$(grep -o '[0-9]* bytes sent' "$work/stderr" | awk '{s += $1} END {print s}')
    printf '| %s | 2 hosts × %s ranks, TCP | %.2f | %s | %.2f | %.1f | %.0f | %.1f | %s |\n' "$T × $C" "$ranks" \
      "$(awk -v n=$((e - s)) 'BEGIN{print n/1e9}')" "$cpu" "$(awk -v a="$cpu" -v b="$ref_cpu" 'BEGIN{print a/b}')" \
      "$(awk -v b="$sent" 'BEGIN{print b/1e6}')" "$(awk -v b="$sent" -v c="$contexts" 'BEGIN{print c ? b/c : 0}')" \
      "$(awk -v b="$sent" -v p="$profiles" 'BEGIN{print b/p/1e3}')" "$(same "$work/ref" "$work/mpi")"
    grep 'rank' "$work/stderr" | sed 's/^/    /' >&2
  done
  rm -rf "$work/mpi" "$work/ref"
done
echo "load average at the end: $(cut -d" " -f1-3 /proc/loadavg)"
