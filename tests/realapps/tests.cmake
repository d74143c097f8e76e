# SPDX-License-Identifier: BSD-3-Clause
# Programs as people build and run them (tests/realapps/run_app.sh): mini-applications built in the
# test, and Debian's lammps and hpcc under mpirun; each skips (exit 77) saying which package is missing.
set(REALAPPS_DIR ${CMAKE_CURRENT_LIST_DIR})
foreach(case cxx cxx-debuglink fortran omp-gcc omp-clang omp-mpi stripped lammps hpcc)
  add_test(NAME realapps/${case}
           COMMAND bash ${REALAPPS_DIR}/run_app.sh ${case} $<TARGET_FILE:hpcdb> ${REALAPPS_DIR}
                   ${PROJECT_BINARY_DIR}/tests/realapps)
  set_tests_properties(realapps/${case} PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 900)
endforeach()
