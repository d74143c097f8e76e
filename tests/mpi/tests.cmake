# SPDX-License-Identifier: BSD-3-Clause
# hpcdb-mpi against hpcdb analyze: byte-identical databases on 1-4 ranks (6 and 9: wide), failures (tests/mpi/mpi_case.sh).
set(MPI_CASE ${CMAKE_CURRENT_LIST_DIR}/mpi_case.sh)
set(MPI_RECORDED "recorded|none")
if(HPCDB_MPI_FOUND)
  add_executable(test_mpi_spin ${CMAKE_CURRENT_LIST_DIR}/mpi_spin.c)
  target_link_libraries(test_mpi_spin PRIVATE MPI::MPI_C Threads::Threads)
  set(MPI_RECORDED "recorded|$<TARGET_FILE:test_mpi_spin>")
endif()
foreach(spec IN ITEMS "${MPI_RECORDED}" "real|small" "real|loops-cputime-t" "real|loops-cuda-nvidia-t" "generated|16x2000"
                      "generated|256x300" "generated|64x1000|--stats|-j|2" "wide" "skipped" "killed" "force")
  string(REPLACE "|" ";" args "${spec}")
  list(GET args 0 kind)
  string(REPLACE "|" "/" test_name "mpi/${spec}")
  string(REGEX REPLACE "^mpi/recorded/.*" "mpi/recorded" test_name "${test_name}")
  string(REPLACE "/--stats/-j/2" "/stats-j2" test_name "${test_name}")
  if(HPCDB_MPI_FOUND)
    add_test(NAME ${test_name}
             COMMAND ${MPI_CASE} $<TARGET_FILE:hpcdb> $<TARGET_FILE:hpcdb-mpi> ${HPCDB_MPIEXEC}
                     $<TARGET_FILE:gen_measurements> ${HPCDB_SAMPLE_DATA} ${PROJECT_BINARY_DIR}/test-output/${test_name}
                     ${args})
  else()
    add_test(NAME ${test_name} COMMAND sh -c "echo 'MPI not found by CMake (hpcdb-mpi not built): skipped'; exit 77")
  endif()
  set_tests_properties(${test_name} PROPERTIES SKIP_RETURN_CODE 77)
  if(HPCDB_SANITIZE) # Open MPI does not free what it allocates; leaks of the library are tests/unit/analysis/test_dist_serial's
    set_tests_properties(${test_name} PROPERTIES ENVIRONMENT "ASAN_OPTIONS=detect_leaks=0")
  endif()
endforeach()
# Started without mpirun (a retry after mpirun refused to run as root or found too few slots),
# hpcdb-mpi says which mpirun flags a root user and a small machine need.
if(HPCDB_MPI_FOUND)
  add_test(NAME mpi/hint-without-mpirun COMMAND $<TARGET_FILE:hpcdb-mpi>)
  set_tests_properties(mpi/hint-without-mpirun PROPERTIES WILL_FAIL FALSE
    PASS_REGULAR_EXPRESSION "mpirun --allow-run-as-root --oversubscribe -np 4 hpcdb-mpi analyze")
endif()

# hpcdb-mpi across test hosts (network namespaces, TCP only; tests/mpi/netns_case.sh): byte-identical
# databases on 2 and 3 hosts, a link cut in each phase, a host's processes killed, measurements a host
# cannot see, the note on keep-alives. Each test has its own subnet (the index), so they can run at once.
set(NETNS_CASE ${CMAKE_CURRENT_LIST_DIR}/netns_case.sh)
set(netns_index 1)
foreach(spec IN ITEMS "same|2|1|real:loops-cputime-t" "same|2|2|real:small" "same|3|1|real:loops-cuda-nvidia-t"
                      "same|3|2|generated:48x1500" "same|2|2|generated:16x2000"
                      "cut|unify" "cut|tree" "cut|propagate" "cut|write" "cut|cct" "cut|meta" "killed" "hidden" "note")
  string(REPLACE "|" ";" args "${spec}")
  string(REPLACE "|" "/" test_name "mpi/netns/${spec}")
  string(REPLACE ":" "-" test_name "${test_name}")
  if(HPCDB_MPI_FOUND)
    add_test(NAME ${test_name}
             COMMAND ${NETNS_CASE} $<TARGET_FILE:hpcdb> $<TARGET_FILE:hpcdb-mpi> ${HPCDB_MPIEXEC}
                     $<TARGET_FILE:gen_measurements> ${HPCDB_SAMPLE_DATA} ${PROJECT_BINARY_DIR}/test-output/${test_name}
                     ${netns_index} ${args})
  else()
    add_test(NAME ${test_name} COMMAND sh -c "echo 'MPI not found by CMake (hpcdb-mpi not built): skipped'; exit 77")
  endif()
  set_tests_properties(${test_name} PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 180)
  if(HPCDB_SANITIZE)
    set_tests_properties(${test_name} PROPERTIES ENVIRONMENT "ASAN_OPTIONS=detect_leaks=0")
  endif()
  math(EXPR netns_index "${netns_index} + 1")
endforeach()
# The output rule of every command: a missing parent folder of DB is not created.
if(HPCDB_MPI_FOUND)
  add_test(NAME mpi/no-folder COMMAND $<TARGET_FILE:hpcdb-mpi> analyze ${HPCDB_SAMPLE_DATA}/hpcrun/small.m
                                      -o ${PROJECT_BINARY_DIR}/test-output/mpi/no-folder/none/x.d)
  set_tests_properties(mpi/no-folder PROPERTIES
    PASS_REGULAR_EXPRESSION "x.d: the folder .*/none does not exist [(]folders are not created[)]")
endif()
# Options parsed strictly, as hpcdb's own commands parse them: one line, exit 2 (PMI_SIZE: as if a
# launcher had started the one rank, so no hint about mpirun is printed).
if(HPCDB_MPI_FOUND)
  foreach(value IN ITEMS abc 0 4x 5000)
    add_test(NAME mpi/option/j-${value}
             COMMAND sh -c "PMI_SIZE=1 $0 analyze -j ${value} x.m -o x.d 2>mpi-option-${value}.err; rc=$?; cat mpi-option-${value}.err; [ $rc -eq 2 ] && [ $(wc -l < mpi-option-${value}.err) -eq 1 ] && echo 'exit 2, one line'"
                     $<TARGET_FILE:hpcdb-mpi>)
    set_tests_properties(mpi/option/j-${value} PROPERTIES
      PASS_REGULAR_EXPRESSION "^hpcdb-mpi analyze: -j: '${value}' is not a whole number from 1 to 4096 [(]see --help[)]\nexit 2, one line"
      WORKING_DIRECTORY ${PROJECT_BINARY_DIR})
    if(HPCDB_SANITIZE)
      set_tests_properties(mpi/option/j-${value} PROPERTIES ENVIRONMENT "ASAN_OPTIONS=detect_leaks=0")
    endif()
  endforeach()
endif()
