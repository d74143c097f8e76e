# SPDX-License-Identifier: BSD-3-Clause
# Older HPCToolkit databases (legacy experiment.xml 2.x + metric-db, and the
# 2021-22 draft a): info, validate, convert to v4.0, validate and diff the
# copy, convert again byte-identically; the legacy cpi values against Hatchet's.
set(LEGACY_DIR ${CMAKE_CURRENT_LIST_DIR})
foreach(db hpctoolkit-legacy/cpi-mpi hpctoolkit-2022/ping-pong-mpi hpctoolkit-2022/empty-trace)
  add_test(NAME legacy/convert/${db}
           COMMAND ${LEGACY_DIR}/convert_case.sh $<TARGET_FILE:hpcdb> ${HPCDB_SAMPLE_DATA}/${db}
                   ${PROJECT_BINARY_DIR}/test-output/legacy/${db})
  set_tests_properties(legacy/convert/${db} PROPERTIES SKIP_RETURN_CODE 77)
endforeach()
add_test(NAME legacy/hatchet/cpi-mpi
         COMMAND python3 ${LEGACY_DIR}/check_hatchet.py $<TARGET_FILE:hpcdb>
                 ${HPCDB_SAMPLE_DATA}/hpctoolkit-legacy/cpi-mpi
                 ${HPCDB_SAMPLE_DATA}/hpctoolkit-legacy/cpi-mpi.hatchet-expected.csv
                 ${PROJECT_BINARY_DIR}/test-output/legacy/hatchet)
set_tests_properties(legacy/hatchet/cpi-mpi PROPERTIES SKIP_RETURN_CODE 77)
# Broken legacy databases made from the cpi sample (tests/bad/legacy/check_bad.py).
add_test(NAME bad/legacy
         COMMAND python3 ${PROJECT_SOURCE_DIR}/tests/bad/legacy/check_bad.py $<TARGET_FILE:hpcdb>
                 ${HPCDB_SAMPLE_DATA}/hpctoolkit-legacy/cpi-mpi ${PROJECT_BINARY_DIR}/test-output/bad/legacy)
set_tests_properties(bad/legacy PROPERTIES SKIP_RETURN_CODE 77)
# Broken draft a databases made from the ping-pong sample (tests/bad/drafta/check_bad.py).
add_test(NAME bad/drafta
         COMMAND python3 ${PROJECT_SOURCE_DIR}/tests/bad/drafta/check_bad.py $<TARGET_FILE:hpcdb>
                 ${HPCDB_SAMPLE_DATA}/hpctoolkit-2022/ping-pong-mpi ${PROJECT_BINARY_DIR}/test-output/bad/drafta)
set_tests_properties(bad/drafta PROPERTIES SKIP_RETURN_CODE 77)
# Draft a's contexts written twice (PF i="X" holding C/S i="-X", the entry
# point) carry the values hpcprof stored once: the top-down report reaches down
# to the MPI calls as on the v4.0 sample of the same program.
add_test(NAME legacy/report/drafta-ping-pong
         COMMAND ${LEGACY_DIR}/report_case.sh $<TARGET_FILE:hpcdb> ${HPCDB_SAMPLE_DATA}/hpctoolkit-2022/ping-pong-mpi
                 ${LEGACY_DIR}/expected/report-drafta-ping-pong.txt ${PROJECT_BINARY_DIR}/test-output/legacy/report
                 --threshold 0 --depth 8)
set_tests_properties(legacy/report/drafta-ping-pong PROPERTIES SKIP_RETURN_CODE 77)
