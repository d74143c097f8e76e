# SPDX-License-Identifier: BSD-3-Clause
# Crash consistency and limits of every writer (issue 29): a few kill points
# per writer (fuzz/crash_campaign.py --quick; `make crash-campaign` runs the
# long campaign), and each writer under a file-size limit, a full tmpfs (as
# root), an address-space limit, a read-only folder, an unreadable input and
# a second writer of the same output (tests/reliab/limits.py).
set(RELIAB_DIR ${CMAKE_CURRENT_LIST_DIR})
add_test(NAME reliab/crash-points
         COMMAND python3 ${PROJECT_SOURCE_DIR}/fuzz/crash_campaign.py $<TARGET_FILE:hpcdb> ${HPCDB_SAMPLE_DATA}
                 ${PROJECT_BINARY_DIR}/tests/reliab/crash --quick --seed 29)
# Every crash point of one analysis with OpenMP regions to place: the regions
# are placed between writing the database and renaming it into place, and no
# kill may leave the database as measured under the output's name.
add_test(NAME reliab/crash-points/analyze
         COMMAND python3 ${PROJECT_SOURCE_DIR}/fuzz/crash_campaign.py $<TARGET_FILE:hpcdb> ${HPCDB_SAMPLE_DATA}
                 ${PROJECT_BINARY_DIR}/tests/reliab/crash-analyze --only analyze-j1 --points 150 --seed 29)
# An address-space limit means nothing to a sanitizer's runtime (terabytes of shadow): left out there.
set(RELIAB_PARTS --part efbig --part enospc --part access --part race)
if(NOT HPCDB_SANITIZE)
  list(APPEND RELIAB_PARTS --part memory)
endif()
add_test(NAME reliab/limits
         COMMAND python3 ${RELIAB_DIR}/limits.py $<TARGET_FILE:hpcdb> ${HPCDB_SAMPLE_DATA}
                 ${PROJECT_BINARY_DIR}/tests/reliab/limits ${RELIAB_PARTS})
# Inputs cut short while read (tests/reliab/truncate.py, ~20 s): a clear error, never SIGBUS or a wrong answer.
add_test(NAME reliab/truncate
         COMMAND python3 ${RELIAB_DIR}/truncate.py $<TARGET_FILE:hpcdb> ${HPCDB_SAMPLE_DATA} ${PROJECT_BINARY_DIR}/tests/reliab/truncate)
set_tests_properties(reliab/crash-points reliab/crash-points/analyze reliab/limits reliab/truncate PROPERTIES SKIP_RETURN_CODE 77)
if(HPCDB_SANITIZE) # the race part runs hpcdb-mpi under mpirun: Open MPI does not free what it allocates
  set_tests_properties(reliab/limits PROPERTIES ENVIRONMENT "ASAN_OPTIONS=detect_leaks=0")
endif()

# Allocation-failure injection (tests/reliab/allocfail.py): the Nth allocation of a command fails, for
# every 11th N over the v4.0 writer and the analysis (the whole sweep: docs/fuzzing.md). The injector is
# an LD_PRELOAD malloc, which a sanitizer's runtime does not allow: left out of sanitizer builds.
if(NOT HPCDB_SANITIZE)
  add_library(reliab_failmalloc MODULE ${RELIAB_DIR}/failmalloc.c)
  set_target_properties(reliab_failmalloc PROPERTIES PREFIX "" LIBRARY_OUTPUT_DIRECTORY ${PROJECT_BINARY_DIR}/tests/reliab)
  add_test(NAME reliab/allocfail
           COMMAND python3 ${RELIAB_DIR}/allocfail.py $<TARGET_FILE:hpcdb> $<TARGET_FILE:reliab_failmalloc>
                   ${HPCDB_SAMPLE_DATA} ${PROJECT_BINARY_DIR}/tests/reliab/allocfail --step 11 --only convert-v4
                   --only analyze)
  set_tests_properties(reliab/allocfail PROPERTIES SKIP_RETURN_CODE 77)
endif()
