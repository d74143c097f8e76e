#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# One hpcdb record test. usage: run_case.sh CASE HPCDB BIN_DIR WORK_DIR
# Records a bundled program from BIN_DIR, checks the exit status and output
# are the program's own, validates the files, analyzes them into a database
# and validates it, then checks where the samples fell (check_samples.py).
set -u
case=$1 hpcdb=$2 bin=$(realpath "$3") work=$4/$1
here=$(dirname "$0")
py=/usr/bin/python3
[ -x $py ] || py=python3
rm -rf "$work" && mkdir -p "$work" || exit 1
m=$work/m
fail() { echo "FAIL: $*"; exit 1; }
record() { "$hpcdb" record -o "$m" "$@"; }
check_db() {
  "$hpcdb" validate "$m" || fail "the measurement does not validate"
  # instruction contexts (load module + offset), for the checks against nm
  "$hpcdb" analyze --ignore-structs "$m" -o "$work/db" --quiet || fail "analyze failed"
  "$hpcdb" validate --errors-only "$work/db" || fail "the database does not validate"
}
# structure files of the given binaries (hpcdb struct), then a database with
# function names in $work/named
named_db() {
  mkdir -p "$m/structs"
  for b in "$@"; do
    "$hpcdb" struct --no-cache "$b" -o "$m/structs/$(basename "$b").hpcstruct" || fail "struct $b"
  done
  "$hpcdb" analyze "$m" -o "$work/named" --quiet || fail "analyze with structure failed"
  "$hpcdb" validate --errors-only "$work/named" || fail "the database with structure does not validate"
}
check() { $py "$here/check_samples.py" "$hpcdb" "$@" || exit 1; }
expect_rc() { [ "$1" = "$2" ] || fail "exit status $1, expected $2"; }
# bad use: exit status 2, the message, and no directory left behind
refused() {
  local want=$1; shift
  local err; err=$("$hpcdb" record -o "$m" "$@" 2>&1 >/dev/null); local rc=$?
  echo "$err"
  [ $rc -eq 2 ] || fail "exit status $rc, expected 2"
  grep -q -- "$want" <<<"$err" || fail "the message does not say '$want'"
  [ ! -e "$m" ] || fail "$m was left behind"
}

case $case in
ratio)
  # 3:1 within 10 % at 200 Hz needs samples at regular intervals of the
  # thread's time: the kernel's cpu-clock event gives them even on a loaded
  # machine. CPUTIME's timers are served on the scheduler tick: under load a
  # signal stands for several periods and lands at a random point, so its
  # ratio is checked only for the dominant function (docs/record.md).
  ev=cpu-clock@f200 metric="cpu-clock (ns)"
  if ! "$hpcdb" record -e $ev -o "$m" true 2>/dev/null; then
    echo "cpu-clock is not allowed here: the 10 % check uses CPUTIME"
    ev=CPUTIME@f200 metric="CPUTIME (sec)"
  fi
  rm -rf "$m"
  record -e $ev "$bin/record_ratio" 2; expect_rc $? 0
  check_db
  check "$m" --expect "$bin/record_ratio:heavy" --max-partial 0.01
  check "$work/db" --metric "$metric|self" \
    --ratio "$bin/record_ratio:heavy" "$bin/record_ratio:light" 3 0.10
  named_db "$bin/record_ratio"
  check "$work/named" --metric "$metric|execution" --named-ratio heavy light 3 0.10
  rm -rf "$m" "$work/db"
  record "$bin/record_ratio" 1; expect_rc $? 0
  check_db
  check "$work/db" --metric "CPUTIME (sec)|self" \
    --ratio "$bin/record_ratio:heavy" "$bin/record_ratio:light" 3 0.5 ;;
recursive)
  record "$bin/record_recursive" 0.5; expect_rc $? 0
  check_db
  check "$m" --expect "$bin/record_recursive:descend" --min-depth "$bin/record_recursive:descend:20" \
    --max-partial 0.01
  named_db "$bin/record_recursive"
  check "$work/named" --named descend ;;
fp-unwind)
  # frame pointers only (the fallback when libunwind fails), on a program built with them
  HPCDB_RECORD_UNWIND=fp record "$bin/record_recursive" 0.5; expect_rc $? 0
  check_db
  check "$m" --expect "$bin/record_recursive:descend" --min-depth "$bin/record_recursive:descend:20" \
    --max-partial 0.01 ;;
threads)
  record "$bin/record_threads" 0.3; expect_rc $? 0
  [ "$(ls "$m"/*.hpcrun | wc -l)" = 5 ] || fail "expected 5 .hpcrun files: $(ls "$m")"
  check_db
  check "$m" --profiles 5 --in-profiles "THREAD=1,THREAD=2,THREAD=3,THREAD=4:$bin/record_threads:worker" \
    --max-partial 0.01
  named_db "$bin/record_threads"
  check "$work/named" --named worker ;;
trace)
  "$hpcdb" record -t -o "$m" "$bin/record_threads" 0.2; expect_rc $? 0
  [ "$(ls "$m"/*.hpctrace | wc -l)" = 5 ] || fail "expected 5 .hpctrace files: $(ls "$m")"
  ! ls "$m" | grep -q '\.part$' || fail "a temporary trace file was left"
  check_db
  "$hpcdb" info "$work/db" | grep -E "^traces: +5 lines" || fail "the database has no 5 trace lines" ;;
dlopen)
  record "$bin/record_dlopen" 0.4; expect_rc $? 0
  check_db
  check "$m" --expect "$bin/librecord_plugin.so:plugin_work" --expect "$bin/record_dlopen:main"
  named_db "$bin/record_dlopen" "$bin/librecord_plugin.so"
  check "$work/named" --named plugin_work --named main ;;
forkexec)
  want=$("$bin/record_forkexec"); wrc=$?
  got=$(record "$bin/record_forkexec"); rc=$?
  expect_rc $rc $wrc
  [ "$got" = "$want" ] || fail "output '$got', without recording '$want'"
  ls "$m"
  [ "$(ls "$m"/*.hpcrun | wc -l)" = 3 ] || fail "expected 3 .hpcrun files"
  gen1=$(ls "$m"/*-1.hpcrun) || fail "no generation-1 file (after exec)"
  child=$(basename "$gen1" | awk -F- '{print $(NF-1)}')
  gen0_child=$(ls "$m"/*-"$child"-0.hpcrun) || fail "no file of the child before exec"
  parent=$(ls "$m"/*-0.hpcrun | grep -v -- "-$child-0.hpcrun")
  check_db
  check "$parent" --expect "$bin/record_forkexec:parent_work"
  check "$gen0_child" --expect "$bin/record_forkexec:child_work"
  check "$gen1" --expect "$bin/record_forkexec:exec_work" ;;
sigprof)
  want=$("$bin/record_sigprof"); wrc=$?
  got=$(record "$bin/record_sigprof"); rc=$?
  echo "$got"
  expect_rc $wrc 0; expect_rc $rc 0
  [ "$got" = "$want" ] || fail "output '$got', without recording '$want'"
  check_db
  check "$m" --expect "$bin/record_sigprof:busy" ;;
sigalrm)
  # samples inside the program's own signal handler reach main through the signal frame
  record "$bin/record_sigalrm"; expect_rc $? 0
  check_db
  check "$m" --expect "$bin/record_sigalrm:in_handler" --expect "$bin/record_sigalrm:outer" \
    --max-partial 0.01
  named_db "$bin/record_sigalrm"
  check "$work/named" --named in_handler ;;
exit)
  record "$bin/record_endings" _exit; expect_rc $? 3
  check_db
  check "$m" --expect "$bin/record_endings:before_end" ;;
sigterm)
  record "$bin/record_endings" sigterm; expect_rc $? 143
  check_db
  check "$m" --expect "$bin/record_endings:before_end" ;;
segv | abort)
  # a crash: what was measured is on disk, and the program dies of its signal as without the recorder
  want=139; [ $case = abort ] && want=134
  ( "$bin/record_endings" $case ); expect_rc $? $want
  record "$bin/record_endings" $case; expect_rc $? $want
  check_db
  check "$m" --expect "$bin/record_endings:before_end" ;;
perf)
  record -e cpu-clock@f200 -e page-faults@1 "$bin/record_ratio" 0.5; expect_rc $? 0
  "$hpcdb" info "$m" | grep -q "cpu-clock (ns)" || fail "no cpu-clock metric"
  check_db
  check "$m" --expect "$bin/record_ratio:heavy" ;;
hardware)
  # these VMs have no hardware counters: the refusal must say so; where the
  # machine has them, the event must work instead
  if err=$("$hpcdb" record -o "$m" -e cycles "$bin/record_ratio" 0.3 2>&1); then
    check_db; check "$m" --expect "$bin/record_ratio:heavy"
  else
    echo "$err"
    grep -q -e "no hardware performance counters" -e "does not allow" <<<"$err" || fail "unclear message"
    [ ! -e "$m" ] || fail "$m was left behind"
  fi ;;
mpi)
  command -v mpirun >/dev/null || { echo "SKIP: mpirun not found (Debian openmpi-bin)"; exit 77; }
  [ -x "$bin/record_mpi_ranks" ] || { echo "SKIP: no MPI C compiler found at configure time (Debian libopenmpi-dev)"; exit 77; }
  timeout 120 mpirun --allow-run-as-root --oversubscribe -np 2 "$hpcdb" record -o "$m" "$bin/record_mpi_ranks"
  expect_rc $? 0
  ls "$m"/*-000000-000-*.hpcrun "$m"/*-000001-000-*.hpcrun >/dev/null || fail "no thread-0 files of ranks 0 and 1"
  check_db
  check "$m" --in-profiles "RANK=0,RANK=1:$bin/record_mpi_ranks:rank_work"
  "$hpcdb" report --view profiles "$work/db" | tee "$work/profiles.txt"
  grep -q "RANK 0" "$work/profiles.txt" && grep -q "RANK 1" "$work/profiles.txt" || fail "ranks missing" ;;
launchers)
  # each launcher's variable alone gives the rank in the files' names; mpirun's wins over srun's
  hide=(-u OMPI_COMM_WORLD_RANK -u PMIX_RANK -u PMI_RANK -u MV2_COMM_WORLD_RANK -u SLURM_PROCID)
  for v in SLURM_PROCID=3 PMI_RANK=4 PMIX_RANK=5 MV2_COMM_WORLD_RANK=6 OMPI_COMM_WORLD_RANK=7 \
           "OMPI_COMM_WORLD_RANK=8 SLURM_PROCID=0" "SLURM_PROCID=x PMI_RANK=9"; do
    rm -rf "$m"
    # shellcheck disable=SC2086 # $v: one or two assignments
    env "${hide[@]}" $v "$hpcdb" record -o "$m" "$bin/record_ratio" 0.05 >/dev/null; expect_rc $? 0
    want=$(grep -o '[0-9]*$' <<<"$v")
    [ "$v" = "SLURM_PROCID=x PMI_RANK=9" ] && want=9
    [ "$v" = "OMPI_COMM_WORLD_RANK=8 SLURM_PROCID=0" ] && want=8
    ls "$m"/record_ratio-00000$want-000-*.hpcrun >/dev/null || fail "$v: no file of rank $want: $(ls "$m")"
  done ;;
mpi-comm-rank)
  command -v mpirun >/dev/null || { echo "SKIP: mpirun not found (Debian openmpi-bin)"; exit 77; }
  [ -x "$bin/record_mpi_late_rank" ] || { echo "SKIP: no MPI C compiler found at configure time (Debian libopenmpi-dev)"; exit 77; }
  # the launcher's variables hidden from the recorder: MPI_Comm_rank gives the rank (traces renamed)
  timeout 120 mpirun --allow-run-as-root --oversubscribe -np 2 sh -c \
    'r=$PMIX_RANK; exec env -u PMIX_RANK -u OMPI_COMM_WORLD_RANK -u PMI_RANK -u SLURM_PROCID HIDDEN_PMIX_RANK=$r \
       "$0" record -t -o "$1.$r" "$2"' "$hpcdb" "$m" "$bin/record_mpi_late_rank"
  expect_rc $? 0
  for r in 0 1; do
    ls "$m.$r"/*-00000$r-000-*.hpcrun "$m.$r"/*-00000$r-000-*.hpctrace >/dev/null || fail "rank $r: $(ls "$m.$r")"
  done
  "$hpcdb" analyze --ignore-structs "$m.1" -o "$work/db1" --quiet || fail "analyze failed"
  "$hpcdb" info "$work/db1" | grep -q "RANK 1 .*THREAD 0" || fail "rank 1's profile has no RANK 1" ;;
bad-event)
  refused "unknown event 'NOPE'" -e NOPE "$bin/record_ratio" 0.1 ;;
bad-period)
  refused "positive whole number" -e CPUTIME@0 "$bin/record_ratio" 0.1
  refused "positive whole number" -e REALTIME@f0 "$bin/record_ratio" 0.1 ;;
bad-directory)
  mkdir -p "$work/ro" && chmod 555 "$work/ro"
  if [ "$(id -u)" = 0 ]; then m=/proc/hpcdb-record-test.m; else m=$work/ro/x.m; fi
  refused "cannot create the measurement directory" "$bin/record_ratio" 0.1 ;;
bad-program)
  refused "program not found" "$work/no-such-program"
  refused "program not found" no-such-program-in-path ;;
exists)
  mkdir -p "$m"
  err=$("$hpcdb" record -o "$m" "$bin/record_ratio" 0.1 2>&1); rc=$?
  echo "$err"; expect_rc $rc 2
  grep -q "exists" <<<"$err" || fail "the message does not say the directory exists"
  "$hpcdb" record --force -o "$m" "$bin/record_ratio" 0.2; expect_rc $? 0
  check_db ;;
*) fail "unknown case $case" ;;
esac
echo PASS
