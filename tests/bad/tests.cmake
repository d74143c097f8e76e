# SPDX-License-Identifier: BSD-3-Clause
# Broken-file corpora that need nothing but their cases: the rest of tests/bad/
# is run by the groups of its formats (tests/legacy, tests/cube, tests/bad-gpu).

# Broken hpcrun measurement files (tests/bad/hpcrun/cases.txt), made at test
# time from the real samples and checked to be rejected with file + offset.
add_executable(bad_hpcrun ${CMAKE_CURRENT_SOURCE_DIR}/bad/hpcrun/run_bad_hpcrun.c)
target_link_libraries(bad_hpcrun PRIVATE hpcdb_testlib)
add_test(NAME bad/hpcrun COMMAND bad_hpcrun ${CMAKE_CURRENT_SOURCE_DIR}/bad/hpcrun/cases.txt)
set_tests_properties(bad/hpcrun PROPERTIES
  ENVIRONMENT "HPCDB_SAMPLE_DATA=${HPCDB_SAMPLE_DATA};HPCDB_BUILD_DIR=${PROJECT_BINARY_DIR}"
  SKIP_RETURN_CODE 77)

# Broken structure files (tests/bad/hpcstruct/cases.txt), each rejected by
# validate and info with its rule and line.
add_test(NAME bad/hpcstruct
         COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/bad/hpcstruct/run.sh $<TARGET_FILE:hpcdb>
                 ${CMAKE_CURRENT_SOURCE_DIR}/bad/hpcstruct ${PROJECT_BINARY_DIR}/test-output/bad/hpcstruct)
