# SPDX-License-Identifier: BSD-3-Clause
# Damaged GPU measurements (tests/bad-gpu/cases.txt), made at test time from
# the CUDA sample and analyzed as a whole: skipped, warned about or harmless.
add_executable(bad_gpu ${CMAKE_CURRENT_LIST_DIR}/run_bad_gpu.c)
target_link_libraries(bad_gpu PRIVATE hpcdb_testlib)
add_test(NAME bad/gpu COMMAND bad_gpu ${CMAKE_CURRENT_LIST_DIR}/cases.txt)
set_tests_properties(bad/gpu PROPERTIES
  ENVIRONMENT "HPCDB_SAMPLE_DATA=${HPCDB_SAMPLE_DATA};HPCDB_BUILD_DIR=${PROJECT_BINARY_DIR}"
  SKIP_RETURN_CODE 77)
