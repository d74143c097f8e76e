# SPDX-License-Identifier: BSD-3-Clause
# hpcdb analyze against hpcprof's own databases, determinism, bad input.
set(ANALYZE_CASE ${CMAKE_CURRENT_LIST_DIR}/analyze_case.sh)
foreach(spec "reference;small" "reference;loops-cputime-t" "reference;loops-cuda-nvidia-t"
             "structure;small" "structure;loops-cputime-t" "structure;loops-cuda-nvidia-t"
             "jobs;loops-cputime-t" "jobs;loops-cuda-nvidia-t" "broken;" "refuse;" "badstruct;" "replace;"
             "openmp;loops-cputime-t")
  list(GET spec 0 kind)
  list(GET spec 1 name)
  set(test_name analyze/${kind})
  if(name)
    set(test_name analyze/${kind}/${name})
  endif()
  add_test(NAME ${test_name}
           COMMAND ${ANALYZE_CASE} $<TARGET_FILE:hpcdb> ${HPCDB_SAMPLE_DATA}
                   ${PROJECT_BINARY_DIR}/test-output/${test_name} ${kind} ${name})
  set_tests_properties(${test_name} PROPERTIES SKIP_RETURN_CODE 77)
endforeach()
# record + analyze with no extra arguments (the binary read directly): hpcdb struct's -O2 -g test program
add_test(NAME analyze/recorded
         COMMAND ${ANALYZE_CASE} $<TARGET_FILE:hpcdb> ${HPCDB_SAMPLE_DATA}
                 ${PROJECT_BINARY_DIR}/test-output/analyze/recorded recorded ${PROJECT_BINARY_DIR}/tests/binstruct/bs_kernels)
set_tests_properties(analyze/recorded PROPERTIES SKIP_RETURN_CODE 77)
# many files in batches (-j 2 and 3 against -j 1): gen_measurements' output
add_test(NAME analyze/batches
         COMMAND ${ANALYZE_CASE} $<TARGET_FILE:hpcdb> ${HPCDB_SAMPLE_DATA}
                 ${PROJECT_BINARY_DIR}/test-output/analyze/batches batches $<TARGET_FILE:gen_measurements>)
set_tests_properties(analyze/batches PROPERTIES SKIP_RETURN_CODE 77)
# the sampling period of a perf event applied as hpcprof does: hpcdb record's program
add_test(NAME analyze/period
         COMMAND ${ANALYZE_CASE} $<TARGET_FILE:hpcdb> ${HPCDB_SAMPLE_DATA}
                 ${PROJECT_BINARY_DIR}/test-output/analyze/period period ${PROJECT_BINARY_DIR}/tests/record/record_ratio)
set_tests_properties(analyze/period PROPERTIES SKIP_RETURN_CODE 77)
