# SPDX-License-Identifier: BSD-3-Clause
# Exports other tools open: structure checks on every real database.
set(PRESENT_DIR ${CMAKE_CURRENT_LIST_DIR})
foreach(db hpctoolkit-v4/cpi-mpi hpctoolkit-v4/ping-pong-mpi hpctoolkit-v4/hpcviewer-issue-328 hpctoolkit-v4/lmp-openmp
           hpctoolkit-v4/loop-fork-cycles hpcrun/expected/small.d hpcrun/expected/loops-cputime-t.d
           hpcrun/expected/loops-cputime-t.nostruct.d)
  add_test(NAME present/export/${db}
           COMMAND python3 ${PRESENT_DIR}/check_export.py $<TARGET_FILE:hpcdb> ${HPCDB_SAMPLE_DATA}/${db}
                   ${PROJECT_BINARY_DIR}/test-output/present/${db})
  set_tests_properties(present/export/${db} PROPERTIES SKIP_RETURN_CODE 77)
endforeach()

# The html and flamegraph exports in Debian's chromium with playwright-core (skipped without them).
# (a v4.0 database, one with several metrics, an older one, a Cube file)
foreach(db hpctoolkit-v4/cpi-mpi hpctoolkit-v4/ping-pong-mpi hpctoolkit-v4/hpcviewer-issue-328 hpctoolkit-2022/ping-pong-mpi
           cube/scorep-cpi.cubex)
  add_test(NAME present/browser/${db}
           COMMAND ${PRESENT_DIR}/browser_check.sh $<TARGET_FILE:hpcdb> ${HPCDB_SAMPLE_DATA}/${db}
                   ${PROJECT_BINARY_DIR}/screenshots/${db})
  set_tests_properties(present/browser/${db} PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 300)
endforeach()
