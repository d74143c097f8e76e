#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Programs as people build and run them, through the whole pipeline: record (under mpirun for MPI),
# analyze, report, export, and a route of hpcdb view; the checks are check_tree.py's.
# usage: run_app.sh CASE HPCDB SOURCE_DIR WORK_DIR
#   cxx, cxx-debuglink   C++ (templates, lambdas, exceptions, static functions) at -O2 -g; then
#                        stripped with its debug info beside it (.gnu_debuglink)
#   fortran              gfortran, a module's procedures
#   omp-gcc, omp-clang   C with OpenMP: gcc and libgomp, clang and libomp
#   omp-mpi              the same with MPI, 2 ranks of 2 threads
#   stripped             the C++ program stripped of everything: no function named by address
#   lammps, hpcc         Debian's lammps (an LJ melt) and hpcc (small HPL and DGEMM), 2 ranks
# Every case checks that no function of 1% or more is named module+0xOFFSET (code without symbols is
# cut into functions by struct: <unknown procedure> 0xADDR [module]).
set -u
case=$1 hpcdb=$(realpath "$2") src=$(realpath "$3") work=$4/$1
py=/usr/bin/python3
[ -x $py ] || py=python3
rm -rf "$work" && mkdir -p "$work" && cd "$work" || exit 1
fail() { echo "FAIL: $*"; exit 1; }
skip() { echo "SKIP: $*"; exit 77; }
check() { $py "$src/check_tree.py" "$hpcdb" "$@" || fail "check_tree.py $*"; }
mpirun=(mpirun --allow-run-as-root --oversubscribe -np 2)
# The pipeline on a recorded measurement m: databases db (default) and raw (--openmp raw),
# the reports and exports, and the viewer's tree route.
pipeline() {
  "$hpcdb" analyze -j 2 m -o db --quiet || fail "analyze"
  "$hpcdb" analyze -j 2 --openmp raw m -o raw --quiet || fail "analyze --openmp raw"
  "$hpcdb" validate --errors-only db || fail "the database does not validate"
  HPCDB_TERMINAL=1 COLUMNS=140 "$hpcdb" report db | head -40
  "$hpcdb" report --view bottom-up --scopes functions --top 12 db
  "$hpcdb" export --format folded db -o folded.txt 2>/dev/null || fail "export folded"
  ! grep -q ':0;\|:0 [0-9]' folded.txt || fail "a line 0 in the folded stacks"
  view_route
}
# hpcdb view on a free port: the heaviest path from the root, as the page walks it (/api/children)
view_route() {
  "$hpcdb" view --no-browser --port 0 db > view.log 2>&1 &
  local pid=$! url=""
  for _ in $(seq 200); do
    url=$(grep -o 'http://[^ ]*' view.log | head -1)
    [ -n "$url" ] && break
    sleep 0.1
  done
  [ -n "$url" ] || { kill "$pid"; fail "hpcdb view did not start: $(cat view.log)"; }
  $py - "${url%%/\?*}" "${url#*token=}" > view_path.txt << 'PY'
import json, sys, urllib.request
base, token, node, names = sys.argv[1], sys.argv[2], 0, []
for _ in range(12):
    doc = json.load(urllib.request.urlopen("%s/api/children?node=%d&token=%s" % (base, node, token)))
    if not doc["rows"]:
        break
    node = doc["rows"][0]["node"]
    names.append(doc["rows"][0]["name"])
print("\n".join(names))
PY
  local rc=$?
  kill "$pid"
  wait "$pid" 2> /dev/null
  [ $rc -eq 0 ] && [ -s view_path.txt ] || fail "the viewer's /api/children route"
  echo "viewer's heaviest path:"; cat view_path.txt
  ! grep -q ':0$' view_path.txt || fail "a line 0 in the viewer's heaviest path"
}
omp_checks() {
  check db "region=smooth._omp_fn.0@smooth" "region=relax._omp_fn.0@relax" "same-as=raw" no-line-zero \
    no-address=1
  # the raw trees keep the workers' regions under their own thread's root
  ! $py "$src/check_tree.py" "$hpcdb" raw "region=smooth._omp_fn.0@smooth" > /dev/null ||
    fail "raw: the workers' regions moved"
}
export OMP_NUM_THREADS=2 OMP_WAIT_POLICY=passive

case $case in
cxx | cxx-debuglink | stripped)
  command -v g++ > /dev/null || skip "no g++ (Debian g++)"
  g++ -O2 -g "$src/cxx_app.cc" -o app || fail "g++"
  if [ "$case" = cxx-debuglink ]; then
    # as distributions ship it: the debug info in a file of its own, where GDB looks (.debug/ beside it)
    mkdir -p .debug && objcopy --only-keep-debug app .debug/app.debug && strip --strip-all app &&
      objcopy --add-gnu-debuglink=.debug/app.debug app || fail "objcopy"
  elif [ "$case" = stripped ]; then
    strip --strip-all app || fail "strip"
  fi
  "$hpcdb" record -o m ./app 400 || fail "record"
  pipeline
  if [ "$case" = stripped ]; then
    check db no-address=1 "named=main [app]" # main found from the entry point, as debuggers find it
  else
    # the exceptions' cost is the unwinder's (libgcc_s), reached from checked_step
    check db "hot=Grid<double>::relax,norm_of<double>@8" "has=checked_step,run_steps,_Unwind_" demangled \
      no-line-zero no-address=1
  fi ;;
fortran)
  command -v gfortran > /dev/null || skip "no gfortran (Debian gfortran)"
  gfortran -O2 -g "$src/fortran_app.f90" -o app || fail "gfortran"
  "$hpcdb" record -o m ./app 150 || fail "record"
  pipeline
  check db "hot=relax_field@4" no-line-zero no-address=1 ;;
omp-gcc)
  gcc -O2 -g -fopenmp "$src/omp_regions.c" -o app -lm || fail "gcc -fopenmp"
  "$hpcdb" record -o m ./app 100 || fail "record"
  pipeline
  omp_checks ;;
omp-clang)
  command -v clang > /dev/null || skip "no clang (Debian clang)"
  clang -O2 -g -fopenmp "$src/omp_regions.c" -o app -lm 2> clang.log || skip "clang -fopenmp: no libomp (Debian libomp-dev)"
  "$hpcdb" record -o m ./app 100 || fail "record"
  pipeline
  check db "same-as=raw" no-line-zero no-address=1
  # clang names every region .omp_outlined.: none is left under the workers' runtime frames
  check db "region=.omp_outlined.@<main thread>"
  ! $py "$src/check_tree.py" "$hpcdb" raw "region=.omp_outlined.@<main thread>" > /dev/null ||
    fail "raw: the workers' regions moved" ;;
omp-mpi)
  command -v mpicc > /dev/null && command -v mpirun > /dev/null || skip "no mpicc/mpirun (Debian libopenmpi-dev, openmpi-bin)"
  mpicc -O2 -g -fopenmp -DWITH_MPI "$src/omp_regions.c" -o app -lm || fail "mpicc"
  timeout 300 "${mpirun[@]}" "$hpcdb" record -o m ./app 60 || fail "record under mpirun"
  pipeline
  omp_checks
  "$hpcdb" info db | grep -q "RANK 1" || fail "no rank 1" ;;
lammps)
  command -v lmp > /dev/null || skip "no lmp (Debian lammps)"
  command -v mpirun > /dev/null || skip "no mpirun (Debian openmpi-bin)"
  cat > in.melt <<'EOF'
units lj
atom_style atomic
lattice fcc 0.8442
region box block 0 10 0 10 0 10
create_box 1 box
create_atoms 1 box
mass 1 1.0
velocity all create 3.0 87287 loop geom
pair_style lj/cut 2.5
pair_coeff 1 1 1.0 1.0 2.5
neighbor 0.3 bin
neigh_modify every 20 delay 0 check no
fix 1 all nve
run 250
EOF
  OMP_NUM_THREADS=1 timeout 600 "${mpirun[@]}" "$hpcdb" record -o m lmp -in in.melt -log none -screen none ||
    fail "record lmp under mpirun"
  pipeline
  check db "hot=PairLJCut::compute,mca_btl|opal_progress|ompi_@8" demangled no-line-zero no-address=1 "named=main [lmp]" ;;
hpcc)
  command -v hpcc > /dev/null || skip "no hpcc (Debian hpcc)"
  command -v mpirun > /dev/null || skip "no mpirun (Debian openmpi-bin)"
  cat > hpccinf.txt <<'EOF'
HPLinpack benchmark input file
Innovative Computing Laboratory, University of Tennessee
HPL.out      output file name (if any)
6            device out (6=stdout,7=stderr,file)
1            # of problems sizes (N)
1000         Ns
1            # of NBs
80           NBs
0            PMAP process mapping (0=Row-,1=Column-major)
1            # of process grids (P x Q)
1            Ps
2            Qs
16.0         threshold
1            # of panel fact
2            PFACTs (0=left, 1=Crout, 2=Right)
1            # of recursive stopping criterium
4            NBMINs (>= 1)
1            # of panels in recursion
2            NDIVs
1            # of recursive panel fact.
1            RFACTs (0=left, 1=Crout, 2=Right)
1            # of broadcast
1            BCASTs (0=1rg,1=1rM,2=2rg,3=2rM,4=Lng,5=LnM)
1            # of lookahead depth
1            DEPTHs (>=0)
2            SWAP (0=bin-exch,1=long,2=mix)
64           swapping threshold
0            L1 in (0=transposed,1=no-transposed) form
0            U  in (0=transposed,1=no-transposed) form
1            Equilibration (0=no,1=yes)
8            memory alignment in double (> 0)
##### This line (no. 32) is ignored (it serves as a separator). ######
0                               Number of additional problem sizes for PTRANS
1200 10000 30000                values of N
0                               number of additional blocking sizes for PTRANS
40 9 8 13 13 20 16 32 64        values of NB
EOF
  OMP_NUM_THREADS=1 timeout 900 "${mpirun[@]}" "$hpcdb" record -o m hpcc || fail "record hpcc under mpirun"
  pipeline
  # 2 ranks on 2 shared cores: MPI progress (RandomAccess's MPI_Test loops) comes first; dgemm_
  # (HPL, DGEMM) among the next
  check db "hot=opal_progress|mca_btl,dgemm_@12" demangled no-line-zero no-address=1 "named=main [hpcc]" ;;
*) fail "unknown case $case" ;;
esac
echo "PASS: $case"
