# Broken hpcrun measurement files (tests/bad/hpcrun/cases.txt), made at test
# time from the real samples and checked to be rejected with file + offset.
add_executable(bad_hpcrun ${CMAKE_CURRENT_SOURCE_DIR}/bad/hpcrun/run_bad_hpcrun.c)
target_link_libraries(bad_hpcrun PRIVATE hpcdb_testlib)
add_test(NAME bad/hpcrun COMMAND bad_hpcrun ${CMAKE_CURRENT_SOURCE_DIR}/bad/hpcrun/cases.txt)
set_tests_properties(bad/hpcrun PROPERTIES
  ENVIRONMENT "HPCDB_SAMPLE_DATA=${HPCDB_SAMPLE_DATA};HPCDB_BUILD_DIR=${PROJECT_BINARY_DIR}"
  SKIP_RETURN_CODE 77)
