#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# hpcdb-mpi across hosts: test hosts made of network namespaces joined by a
# bridge, each with its own address and host name; Open MPI launches its
# daemons into them through netns_agent.sh (in place of ssh) and the ranks talk
# over TCP only. Run by ctest as root; skipped (77) where namespaces cannot be made.
#   netns_case.sh HPCDB HPCDB_MPI MPIEXEC GEN SAMPLES OUT INDEX CASE [ARGS]
#     same HOSTS RANKS MEAS     - HOSTS hosts x RANKS ranks each; MEAS real:NAME or generated:TxC;
#                                 the database byte-identical to hpcdb analyze's
#     cut PHASE                 - the link to host 2 cut while its first rank is in PHASE
#     killed                    - host 2's ranks killed mid-run
#     hidden                    - host 2 does not see the measurements: an error before any work
#     note                      - across hosts without keep-alive options: a note that says which to add
# INDEX (1-250) keeps the tests of one ctest run apart: subnet 10.77.INDEX.0/24. Two runs on one machine
# at once (two build folders) use the same names and subnets and break each other's hosts: run one at a time.
set -u
hpcdb=$1 hpcdb_mpi=$2 mpiexec=$3 gen=$4 samples=$5 out=$6 index=$7 case=$8
shift 8
here=$(cd "$(dirname "$0")" && pwd)
fail() { echo "FAIL: $*"; exit 1; }
skip() { echo "$*: skipped"; exit 77; }

[ "$(id -u)" = 0 ] || skip "test hosts need root (ip netns)"
command -v ip >/dev/null && command -v unshare >/dev/null || skip "ip (iproute2) or unshare not installed"
subnet=10.77.$index
export HPCDB_NETNS_PREFIX=hpcdbt$index HPCDB_NETNS_TMP=$out/hosts.tmp
bridge=hpcdbt$index-br
rm -rf "$out" && mkdir -p "$out" "$HPCDB_NETNS_TMP"

. "$here/netns_hosts.sh"
trap hosts_down EXIT

# The keep-alive options are what bound the time a lost host takes to end the
# job (docs/mpi.md): without them Open MPI waits for TCP to give up.
keepalive=(--mca oob_tcp_keepalive_time 5 --mca oob_tcp_keepalive_intvl 2 --mca oob_tcp_keepalive_probes 3)
run_mpi() {
  local np=$1; shift
  # shellcheck disable=SC2046 # the arguments have no blanks
  timeout -s KILL 120 "$mpiexec" $(netns_mpi_args) -np "$np" "${keepalive[@]}" "$hpcdb_mpi" analyze "$@"
}

same_db() {
  (cd "$1" && find . -type f | sort) > "$out/files.a"
  (cd "$2" && find . -type f | sort) > "$out/files.b"
  cmp -s "$out/files.a" "$out/files.b" || { diff "$out/files.a" "$out/files.b"; fail "$2 has other files than $1"; }
  while read -r f; do cmp "$1/$f" "$2/$f" || fail "$2/$f differs from hpcdb analyze's"; done < "$out/files.a"
}

# nothing_left DB: no process on any host, then no database and no temporary beside it. The
# processes first: when mpirun has returned, a rank on a host that kept its link may still be
# removing its temporary (seen under ASan: listed by one ls, gone by the next).
nothing_left() {
  local ns busy
  for _ in $(seq 20); do # up to 10 s for the hosts' last processes to end
    busy=0
    for ns in $(host_namespaces); do [ -z "$(ip netns pids "$ns")" ] || busy=1; done
    [ $busy = 0 ] && break
    sleep 0.5
  done
  for ns in $(host_namespaces); do
    [ -z "$(ip netns pids "$ns")" ] || fail "processes left on $ns: $(ip netns pids "$ns" | xargs -r ps -o pid=,args= -p)"
  done
  [ -e "$1" ] && fail "a database was left at $1"
  ls -a "$(dirname "$1")" | grep -q "^$(basename "$1")\\.\|^\\.$(basename "$1")\\." &&
    fail "a temporary was left: $(ls -a "$(dirname "$1")")"
  return 0
}

generated() { # generated TxC DIR: measurements with traces
  IFS=x read -r threads contexts <<<"$1"
  "$gen" --threads "$threads" --contexts "$contexts" --samples 50 --shared 0.6 -o "$2" >/dev/null || fail "gen exited $?"
}

# fault KIND: 2 hosts x 2 ranks; rank 2 (host 2's first) waits in a phase until the fault is made
fault() {
  local what=$1 phase=$2
  hosts_up 2 2
  generated 64x2000 "$out/meas"
  local start=$SECONDS
  HPCDB_MPI_FAIL_RANK=2 HPCDB_MPI_FAIL_AT=$phase HPCDB_MPI_FAIL_MODE=pause HPCDB_MPI_FAIL_SIGNAL=$out/paused \
    run_mpi 4 --quiet "$out/meas" -o "$out/db" > "$out/log" 2>&1 &
  local job=$!
  for _ in $(seq 600); do [ -e "$out/paused" ] && break; kill -0 $job 2>/dev/null || break; sleep 0.1; done
  [ -e "$out/paused" ] || { cat "$out/log"; fail "rank 2 never reached phase $phase"; }
  case $what in
  cut) ip link set "${HPCDB_NETNS_PREFIX}v2" down ;;
  killed) ip netns pids "$HPCDB_NETNS_PREFIX-$subnet.2" | xargs -r ps -o pid=,comm= -p | awk '$2 == "hpcdb-mpi" {print $1}' |
    xargs -r kill -9 ;;
  esac
  wait $job
  local rc=$? took=$((SECONDS - start))
  cat "$out/log"
  echo "mpirun exited $rc after ${took} s"
  [ $rc -ne 0 ] || fail "the run succeeded without host 2"
  [ $took -le 60 ] || fail "the job took ${took} s to end (bound: 60 s)"
  grep -q "$subnet\.2" "$out/log" || fail "no message names the lost host $subnet.2"
  nothing_left "$out/db"
}

case $case in
same)
  hosts=$1 ranks=$2 meas=$3
  case $meas in
  real:*) m=$samples/hpcrun/${meas#real:}.m; [ -d "$m" ] || skip "sample data not found at $m" ;;
  generated:*) m=$out/meas; generated "${meas#generated:}" "$m" ;;
  *) fail "measurements '$meas': real:NAME or generated:TxC" ;;
  esac
  hosts_up "$hosts" "$ranks"
  "$hpcdb" analyze --quiet "$m" -o "$out/ref" || fail "hpcdb analyze exited $?"
  run_mpi $((hosts * ranks)) --quiet "$m" -o "$out/db" || fail "hpcdb-mpi over $hosts hosts x $ranks ranks exited $?"
  same_db "$out/ref" "$out/db"
  ;;
cut) fault cut "$1" ;;
killed) fault killed propagate ;;
hidden)
  hosts_up 2 1
  generated 8x300 "$out/meas"
  HPCDB_NETNS_HIDE=$subnet.2:$out/meas run_mpi 2 --quiet "$out/meas" -o "$out/db" > "$out/log" 2>&1
  rc=$?
  cat "$out/log"
  [ $rc -eq 2 ] || fail "exit $rc, expected 2"
  grep -q "not visible on host-$subnet\\.2" "$out/log" || fail "the error does not say which host cannot see the measurements"
  grep -q "phase\|propagat" "$out/log" && fail "work went on past the check"
  nothing_left "$out/db"
  ;;
note) # across hosts without keep-alives, hpcdb-mpi says which options to add; with them, nothing
  hosts_up 2 1
  m=$samples/hpcrun/small.m
  [ -d "$m" ] || skip "sample data not found at $m"
  run_mpi 2 "$m" -o "$out/db" > "$out/with.log" 2>&1 || { cat "$out/with.log"; fail "exit $?"; }
  keepalive=()
  run_mpi 2 --force "$m" -o "$out/db" > "$out/without.log" 2>&1 || { cat "$out/without.log"; fail "exit $?"; }
  cat "$out/without.log"
  grep -q "note: the ranks span 2 hosts.*oob_tcp_keepalive_time" "$out/without.log" || fail "no note without keep-alives"
  grep -q "note:" "$out/with.log" && fail "a note although the keep-alives are set"
  ;;
*) fail "unknown case $case" ;;
esac
echo "1 passed, 0 failed"
